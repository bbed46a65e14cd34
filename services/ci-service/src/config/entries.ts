/**
 * Validation and normalisation of the values inside a job, `default:` and `workflow:`, with
 * GitLab's error wording. A nested entry reports as "<location>:<key> config ...", an attribute
 * of the job itself as "<location> <key> ...". Each parser pushes its errors and returns
 * undefined when the value is unusable.
 */
import { isValidUserRegex } from "@quarry/safe-regex";
import { parseDuration } from "./duration.ts";
import type { AllowFailure, CompiledArtifacts, CompiledEnvironment, CompiledNeed, CompiledRetry, TriggerInclude } from "./types.ts";
import { isHash, isStringArray, type Hash } from "./util.ts";

export type Errors = string[];

export function unknownKeys(value: Hash, allowed: readonly string[], location: string, errors: Errors): void {
  const unknown = Object.keys(value).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) errors.push(`${location} config contains unknown keys: ${unknown.join(", ")}`);
}

const MAX_COMMAND_NESTING = 10;

function flattenCommands(value: unknown, depth: number): string[] | null {
  if (typeof value === "string") return [value];
  if (!Array.isArray(value) || depth > MAX_COMMAND_NESTING) return null;
  const out: string[] = [];
  for (const item of value) {
    const inner = flattenCommands(item, depth + 1);
    if (inner === null) return null;
    out.push(...inner);
  }
  return out;
}

/** `script`, `before_script`, `after_script`: a string or nested arrays of strings. */
export function parseCommands(value: unknown, location: string, errors: Errors): string[] | undefined {
  const commands = flattenCommands(value, 1);
  if (commands === null) {
    errors.push(`${location} config should be a string or a nested array of strings up to 10 levels deep`);
    return undefined;
  }
  return commands;
}

/** Scalars become strings; a hash takes its `value` (GitLab's extended variable syntax). */
export function parseVariables(value: unknown, location: string, errors: Errors): Record<string, string> | undefined {
  if (value === null || value === undefined) return {};
  const message = `${location} config should be a hash of key value pairs, value can be a hash`;
  if (!isHash(value)) {
    errors.push(message);
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [key, raw] of Object.entries(value)) {
    const v = isHash(raw) ? (raw.value ?? (raw.description !== undefined ? "" : undefined)) : raw;
    if (typeof v === "string" || typeof v === "number") out[key] = String(v);
    else {
      errors.push(message);
      return undefined;
    }
  }
  return out;
}

export function parseStringList(value: unknown, location: string, errors: Errors, message = "config should be an array of strings"): string[] | undefined {
  if (typeof value === "string") return [value];
  if (isStringArray(value)) return value;
  errors.push(`${location} ${message}`);
  return undefined;
}

const MAX_NEEDS = 50;

/** `needs`: job names or {job, artifacts, optional}; other kinds (pipeline, project) are kept out. */
export function parseNeeds(value: unknown, location: string, errors: Errors): CompiledNeed[] | undefined {
  const list = isHash(value) ? [value] : value;
  if (!Array.isArray(list)) {
    errors.push(`${location} config can only be a hash or an array`);
    return undefined;
  }
  if (list.length > MAX_NEEDS) {
    errors.push(`${location} config has too many entries (maximum ${MAX_NEEDS})`);
    return undefined;
  }
  const needs: CompiledNeed[] = [];
  for (const item of list) {
    if (typeof item === "string") {
      needs.push({ name: item, artifacts: true, optional: false });
      continue;
    }
    if (!isHash(item) || typeof item.job !== "string") {
      errors.push(`${location}:need config must define a job name (\`job\`)`);
      return undefined;
    }
    unknownKeys(item, ["job", "artifacts", "optional"], `${location}:need`, errors);
    for (const flag of ["artifacts", "optional"] as const) {
      if (item[flag] !== undefined && typeof item[flag] !== "boolean") {
        errors.push(`${location}:need ${flag} should be a boolean value`);
        return undefined;
      }
    }
    needs.push({
      name: item.job,
      artifacts: item.artifacts !== false,
      optional: item.optional === true,
    });
  }
  return needs;
}

const ARTIFACT_KEYS = ["name", "untracked", "paths", "reports", "when", "expire_in", "expose_as", "exclude", "public", "access"];
const ARTIFACT_WHEN = ["on_success", "on_failure", "always"] as const;
const REPORT_KEYS = [
  "junit",
  "codequality",
  "sast",
  "secret_detection",
  "dependency_scanning",
  "container_scanning",
  "dast",
  "license_scanning",
  "performance",
  "browser_performance",
  "load_performance",
  "metrics",
  "requirements",
  "terraform",
  "accessibility",
  "cluster_image_scanning",
  "coverage_fuzzing",
  "api_fuzzing",
  "dotenv",
  "cyclonedx",
  "annotations",
  "repository_xray",
];

export function parseArtifacts(value: unknown, location: string, errors: Errors): CompiledArtifacts | undefined {
  if (!isHash(value)) {
    errors.push(`${location} config should be a hash`);
    return undefined;
  }
  const before = errors.length;
  unknownKeys(value, ARTIFACT_KEYS, location, errors);
  const list = (key: string) => (value[key] === undefined ? [] : (parseStringList(value[key], location, errors, `${key} should be an array of strings`) ?? []));
  const paths = list("paths");
  const exclude = list("exclude");
  const when = value.when ?? "on_success";
  if (!ARTIFACT_WHEN.includes(when as never)) errors.push(`${location} when should be on_success, on_failure or always`);
  if (value.name !== undefined && typeof value.name !== "string") errors.push(`${location} name should be a string`);
  if (value.untracked !== undefined && typeof value.untracked !== "boolean") {
    errors.push(`${location} untracked should be a boolean value`);
  }
  if (value.expose_as !== undefined && typeof value.expose_as !== "string") {
    errors.push(`${location} expose as should be a string`);
  }
  let expireInSeconds: number | null | undefined;
  if (value.expire_in !== undefined && value.expire_in !== null) {
    expireInSeconds = value.expire_in === "never" ? null : parseDuration(value.expire_in);
    if (expireInSeconds === null && value.expire_in !== "never") {
      errors.push(`${location} expire in should be a duration`);
    }
  }
  const reports = parseReports(value.reports, `${location}:reports`, errors);
  if (errors.length > before || !reports) return undefined;
  return {
    name: (value.name as string | undefined) ?? null,
    paths,
    exclude,
    untracked: value.untracked === true,
    ...(expireInSeconds !== undefined ? { expireInSeconds } : {}),
    when: when as CompiledArtifacts["when"],
    exposeAs: (value.expose_as as string | undefined) ?? null,
    reports,
  };
}

function parseReports(value: unknown, location: string, errors: Errors): CompiledArtifacts["reports"] | undefined {
  if (value === undefined || value === null) return { junit: [] };
  if (!isHash(value)) {
    errors.push(`${location} config should be a hash`);
    return undefined;
  }
  const before = errors.length;
  unknownKeys(value, REPORT_KEYS, location, errors);
  const reports: CompiledArtifacts["reports"] = { junit: [] };
  for (const [key, files] of Object.entries(value)) {
    if (!REPORT_KEYS.includes(key)) continue;
    // coverage_report is a hash (format + path); every other report is paths
    const list = parseStringList(files, location, errors, `${key} should be an array of strings or a string`);
    if (list) reports[key] = list;
  }
  return errors.length > before ? undefined : reports;
}

const RETRY_WHEN = [
  "always",
  "unknown_failure",
  "script_failure",
  "api_failure",
  "stuck_or_timeout_failure",
  "runner_system_failure",
  "runner_unsupported",
  "stale_schedule",
  "job_execution_timeout",
  "archived_failure",
  "unmet_prerequisites",
  "scheduler_failure",
  "data_integrity_failure",
];

export function parseRetry(value: unknown, location: string, errors: Errors): CompiledRetry | undefined {
  const checkMax = (max: unknown, what: string): max is number => {
    if (!Number.isInteger(max)) {
      errors.push(`${location} ${what} should be an integer`);
      return false;
    }
    if ((max as number) < 0) errors.push(`${location} ${what} must be greater than or equal to 0`);
    else if ((max as number) > 2) errors.push(`${location} ${what} must be less than or equal to 2`);
    else return true;
    return false;
  };
  if (typeof value === "number") {
    return checkMax(value, "config") ? { max: value, when: ["always"], exitCodes: [] } : undefined;
  }
  if (!isHash(value)) {
    errors.push(`${location} config has to be either an integer or a hash`);
    return undefined;
  }
  const before = errors.length;
  unknownKeys(value, ["max", "when", "exit_codes"], location, errors);
  const max = value.max ?? 0;
  checkMax(max, "max");
  const when = value.when === undefined ? ["always"] : typeof value.when === "string" ? [value.when] : value.when;
  if (!isStringArray(when)) errors.push(`${location} when should be an array of strings or a string`);
  else {
    const bad = when.filter((w) => !RETRY_WHEN.includes(w));
    if (bad.length > 0) errors.push(`${location} when contains unknown values: ${bad.join(", ")}`);
  }
  const exitCodes = parseExitCodes(value.exit_codes, location, errors);
  if (errors.length > before || exitCodes === undefined) return undefined;
  return { max: max as number, when: when as string[], exitCodes };
}

function parseExitCodes(value: unknown, location: string, errors: Errors): number[] | undefined {
  if (value === undefined) return [];
  const codes = typeof value === "number" ? [value] : value;
  if (!Array.isArray(codes) || !codes.every((c) => Number.isInteger(c))) {
    errors.push(`${location} exit codes should be an array of integers or an integer`);
    return undefined;
  }
  return codes as number[];
}

/** `allow_failure`: a boolean, or `{exit_codes}` (the job may fail with those codes only). */
export function parseAllowFailure(value: unknown, location: string, errors: Errors): AllowFailure | undefined {
  if (typeof value === "boolean") return value;
  if (isHash(value)) {
    const before = errors.length;
    unknownKeys(value, ["exit_codes"], location, errors);
    const exitCodes = parseExitCodes(value.exit_codes, location, errors);
    return errors.length > before || exitCodes === undefined ? undefined : { exitCodes };
  }
  errors.push(`${location} config should be a hash or a boolean value`);
  return undefined;
}

const ENVIRONMENT_KEYS = ["name", "url", "action", "on_stop", "auto_stop_in", "kubernetes", "deployment_tier"];
const ENVIRONMENT_ACTIONS = ["start", "prepare", "stop", "verify", "access"];

export function parseEnvironment(value: unknown, location: string, errors: Errors): CompiledEnvironment | undefined {
  if (typeof value === "string") return value === "" ? blank() : { name: value };
  if (!isHash(value)) {
    errors.push(`${location} config should be a hash or a string`);
    return undefined;
  }
  const before = errors.length;
  unknownKeys(value, ENVIRONMENT_KEYS, location, errors);
  if (typeof value.name !== "string" || value.name === "") blank();
  if (value.url !== undefined && typeof value.url !== "string") errors.push(`${location} url must be a string`);
  if (value.action !== undefined && !ENVIRONMENT_ACTIONS.includes(value.action as string)) {
    errors.push(`${location} action should be start, stop, prepare, access, or verify`);
  }
  if (errors.length > before) return undefined;
  return {
    name: value.name as string,
    ...(value.url !== undefined ? { url: value.url as string } : {}),
    ...(value.action !== undefined ? { action: value.action as string } : {}),
  };

  function blank(): undefined {
    errors.push(`${location} name can't be blank`);
    return undefined;
  }
}

/** `image`: a name or {name, entrypoint, ...}; only the name matters to a shell runner. */
const IMAGE_KEYS = ["name", "entrypoint", "ports", "pull_policy", "docker", "kubernetes"];
const SERVICE_KEYS = [...IMAGE_KEYS, "command", "alias", "variables"];

export function parseImage(value: unknown, location: string, errors: Errors, keys = IMAGE_KEYS): string | undefined {
  if (typeof value === "string") return value;
  if (isHash(value)) {
    unknownKeys(value, keys, location, errors);
    if (typeof value.name === "string" && value.name !== "") return value.name;
    errors.push(`${location} name can't be blank`);
    return undefined;
  }
  errors.push(`${location} config should be a hash or a string`);
  return undefined;
}

export function parseServices(value: unknown, location: string, errors: Errors): string[] | undefined {
  if (!Array.isArray(value)) {
    errors.push(`${location} config should be a array`);
    return undefined;
  }
  const names: string[] = [];
  for (const service of value) {
    const name = parseImage(service, `${location}:service`, errors, SERVICE_KEYS);
    if (name === undefined) return undefined;
    names.push(name);
  }
  return names;
}

/** `coverage: /regex/`; GitLab stores the pattern without its slashes. The trace is scanned with RE2. */
export function parseCoverage(value: unknown, location: string, errors: Errors): string | undefined {
  const m = typeof value === "string" ? /^\/(.+)\/$/s.exec(value) : null;
  if (m && isValidUserRegex(m[1]!)) return m[1]!;
  errors.push(`${location} config must be a regular expression with re2 syntax`);
  return undefined;
}

export interface ParsedTrigger {
  include: TriggerInclude[];
  project: string | null;
  branch: string | null;
  strategy: "depend" | null;
  forward: { yamlVariables: boolean; pipelineVariables: boolean };
}

const MAX_TRIGGER_INCLUDES = 3;

/** `trigger`: a project path, {project, branch}, or {include} for a child pipeline. */
export function parseTrigger(value: unknown, location: string, errors: Errors): ParsedTrigger | undefined {
  const base = { include: [], project: null, branch: null, strategy: null, forward: { yamlVariables: true, pipelineVariables: false } };
  if (typeof value === "string" && value !== "") return { ...base, project: value };
  if (!isHash(value)) {
    errors.push(`${location} config should be a hash or a string`);
    return undefined;
  }
  const before = errors.length;
  const isChild = value.include !== undefined;
  unknownKeys(value, isChild ? ["include", "strategy", "forward"] : ["project", "branch", "strategy", "forward"], location, errors);
  if (value.strategy !== undefined && value.strategy !== "depend") errors.push(`${location} strategy should be depend`);
  const forward = { ...base.forward };
  if (value.forward !== undefined) {
    if (!isHash(value.forward)) errors.push(`${location}:forward config should be a hash`);
    else {
      unknownKeys(value.forward, ["yaml_variables", "pipeline_variables"], `${location}:forward`, errors);
      if (typeof value.forward.yaml_variables === "boolean") forward.yamlVariables = value.forward.yaml_variables;
      if (typeof value.forward.pipeline_variables === "boolean") forward.pipelineVariables = value.forward.pipeline_variables;
    }
  }
  let include: TriggerInclude[] = [];
  if (isChild) include = parseTriggerIncludes(value.include, `${location}:include`, errors) ?? [];
  else if (typeof value.project !== "string" || value.project === "") errors.push(`${location} project can't be blank`);
  if (value.branch !== undefined && typeof value.branch !== "string") errors.push(`${location} branch should be a string`);
  if (errors.length > before) return undefined;
  return {
    include,
    project: isChild ? null : (value.project as string),
    branch: (value.branch as string | undefined) ?? null,
    strategy: value.strategy === "depend" ? "depend" : null,
    forward,
  };
}

function parseTriggerIncludes(value: unknown, location: string, errors: Errors): TriggerInclude[] | undefined {
  const items = Array.isArray(value) ? value : [value];
  if (items.length > MAX_TRIGGER_INCLUDES) {
    errors.push(`${location} config must be less than or equal to ${MAX_TRIGGER_INCLUDES}`);
    return undefined;
  }
  const out: TriggerInclude[] = [];
  for (const item of items) {
    if (typeof item === "string") out.push({ local: item.replace(/^\//, "") });
    else if (isHash(item) && typeof item.local === "string" && Object.keys(item).length === 1) {
      out.push({ local: item.local.replace(/^\//, "") });
    } else if (isHash(item) && typeof item.artifact === "string" && typeof item.job === "string") {
      unknownKeys(item, ["artifact", "job"], location, errors);
      out.push({ artifact: item.artifact, job: item.job });
    } else {
      errors.push(`${location} config must be a local file path or a hash with \`local\` or \`artifact\` and \`job\``);
      return undefined;
    }
  }
  return out;
}
