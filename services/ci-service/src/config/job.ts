/**
 * One visible job or trigger job (bridge) from the expanded configuration: GitLab's entry
 * validations (Entry::Job, Entry::Bridge, Entry::Processable) and `default:` inheritance.
 */
import { parseDuration } from "./duration.ts";
import {
  type Errors,
  parseAllowFailure,
  parseArtifacts,
  parseCommands,
  parseCoverage,
  parseEnvironment,
  parseImage,
  parseNeeds,
  parseRetry,
  parseServices,
  parseStringList,
  parseTrigger,
  parseVariables,
  type ParsedTrigger,
  unknownKeys,
} from "./entries.ts";
import { parsePolicy, type Policy } from "./only-except.ts";
import { parseRules, type Rule } from "./rules.ts";
import type { AllowFailure, CompiledEnvironment, CompiledNeed, JobBody, When } from "./types.ts";
import { isHash, isStringArray, type Hash } from "./util.ts";

const PROCESSABLE_KEYS = [
  "extends",
  "stage",
  "only",
  "except",
  "rules",
  "variables",
  "inherit",
  "allow_failure",
  "when",
  "needs",
  "resource_group",
  "environment",
  "interruptible",
];
const JOB_KEYS = [
  ...PROCESSABLE_KEYS,
  "tags",
  "script",
  "image",
  "services",
  "start_in",
  "artifacts",
  "cache",
  "dependencies",
  "before_script",
  "after_script",
  "hooks",
  "coverage",
  "retry",
  "parallel",
  "timeout",
  "release",
  "id_tokens",
  "secrets",
  "pages",
  "publish",
  "manual_confirmation",
];
const BRIDGE_KEYS = [...PROCESSABLE_KEYS, "trigger", "parallel"];

/** Keys a job takes from `default:` when it does not set them (GitLab's `inherit: true` entries). */
export const DEFAULT_KEYS = [
  "after_script",
  "artifacts",
  "before_script",
  "cache",
  "hooks",
  "id_tokens",
  "image",
  "interruptible",
  "retry",
  "services",
  "tags",
  "timeout",
];

const JOB_WHEN: When[] = ["on_success", "on_failure", "always", "manual", "delayed"];
const BRIDGE_WHEN: When[] = ["on_success", "on_failure", "always", "manual"];
const ONE_WEEK = 7 * 24 * 3600;
/** GitLab's maximum job timeout (Project::MAX_BUILD_TIMEOUT, one month). */
const MAX_TIMEOUT = 30 * 24 * 3600;
const MAX_PARALLEL = 200;

interface Definition {
  name: string;
  stage: string;
  when: When;
  startInSeconds: number | null;
  /** GitLab's static `allow_failure` (true for `when: manual` unless set). */
  allowFailure: AllowFailure;
  needs: CompiledNeed[] | null;
  variables: Record<string, string>;
  /** Which global variables the job inherits. */
  inheritVariables: boolean | string[];
  rules: Rule[] | null;
  only: Policy | null;
  except: Policy | null;
  interruptible: boolean | null;
  resourceGroup: string | null;
  environment: CompiledEnvironment | null;
}

export interface JobDefinition extends Definition, JobBody {
  kind: "job";
  /** `parallel`: how many copies, and the variables of each (matrix), expanded later. */
  parallel: { total: number; matrix: Record<string, string>[] | null } | null;
}

export interface BridgeDefinition extends Definition {
  kind: "bridge";
  trigger: ParsedTrigger;
}

export type Definitionish = JobDefinition | BridgeDefinition;

/** A visible job is a hash with `script` or `trigger` (GitLab's Jobs entry matching). */
export const isRunnable = (value: unknown): value is Hash => isHash(value) && (value.script !== undefined || value.trigger !== undefined);

/**
 * Validates the `default:` section (or the legacy top-level keys, under `location`); returns
 * the keys jobs can inherit.
 */
export function parseDefaults(value: Hash, location: string, allowed: readonly string[], errors: Errors): Hash {
  if (location === "default") unknownKeys(value, allowed, location, errors);
  const usable: Hash = {};
  for (const key of allowed) {
    if (value[key] === undefined) continue;
    const before = errors.length;
    validateInheritable(key, value[key], location === "default" ? `default:${key}` : key, errors);
    if (errors.length === before) usable[key] = value[key];
  }
  return usable;
}

function validateInheritable(key: string, value: unknown, at: string, errors: Errors): void {
  switch (key) {
    case "before_script":
    case "after_script":
      parseCommands(value, at, errors);
      break;
    case "artifacts":
      parseArtifacts(value, at, errors);
      break;
    case "image":
      parseImage(value, at, errors);
      break;
    case "services":
      parseServices(value, at, errors);
      break;
    case "retry":
      parseRetry(value, at, errors);
      break;
    case "tags":
      parseStringList(value, at, errors);
      break;
    case "timeout":
      parseTimeout(value, at, errors);
      break;
    case "interruptible":
      if (typeof value !== "boolean") errors.push(`${at} config should be a boolean value`);
      break;
  }
}

function parseTimeout(value: unknown, at: string, errors: Errors): number | undefined {
  const seconds = parseDuration(value);
  if (seconds === null || seconds === 0) errors.push(`${at} config should be a duration`);
  else if (seconds > MAX_TIMEOUT) errors.push(`${at} config should not exceed the limit`);
  else return seconds;
  return undefined;
}

/** Applies `inherit: default:` and the defaults the job does not override. */
function withDefaults(raw: Hash, defaults: Hash): Hash {
  const inherit = isHash(raw.inherit) ? raw.inherit.default : undefined;
  if (inherit === false) return raw;
  const keys = isStringArray(inherit) ? inherit : Object.keys(defaults);
  const merged: Hash = { ...raw };
  for (const key of keys) {
    if (merged[key] === undefined && defaults[key] !== undefined) merged[key] = defaults[key];
  }
  return merged;
}

function parseInherit(value: unknown, at: string, errors: Errors): boolean | string[] {
  if (value === undefined) return true;
  if (!isHash(value)) {
    errors.push(`${at} config should be a hash`);
    return true;
  }
  unknownKeys(value, ["default", "variables"], at, errors);
  for (const key of ["default", "variables"] as const) {
    const v = value[key];
    if (v !== undefined && typeof v !== "boolean" && !isStringArray(v)) {
      errors.push(`${at}:${key} config should be a boolean value or an array of strings`);
    }
  }
  const v = value.variables;
  return typeof v === "boolean" || isStringArray(v) ? v : true;
}

/** Parses a visible job (with `script`) or bridge (with `trigger`); null when invalid. */
export function parseJob(name: string, rawJob: Hash, defaults: Hash, errors: Errors): Definitionish | null {
  const at = `jobs:${name}`;
  const before = errors.length;
  const isBridge = rawJob.trigger !== undefined;
  if (rawJob.script !== undefined && isBridge) {
    errors.push(`${at} config these keys cannot be used together: script, trigger`);
    return null;
  }
  unknownKeys(rawJob, isBridge ? BRIDGE_KEYS : JOB_KEYS, at, errors);
  const raw = isBridge ? rawJob : withDefaults(rawJob, defaults);

  const hasRules = raw.rules !== undefined && raw.rules !== null;
  if (hasRules) {
    const used = ["only", "except", "start_in"].filter((k) => raw[k] !== undefined && raw[k] !== null);
    if (used.length > 0) errors.push(`${at} config key may not be used with \`rules\`: ${used.join(", ")}`);
  }
  if (raw.extends !== undefined && typeof raw.extends !== "string" && !isStringArray(raw.extends)) {
    errors.push(`${at} extends should be an array of strings or a string`);
  }

  let stage = "test";
  if (raw.stage !== undefined) {
    if (typeof raw.stage === "string") stage = raw.stage;
    else errors.push(`${at}:stage config should be a string`);
  }
  const allowedWhen = isBridge ? BRIDGE_WHEN : JOB_WHEN;
  let when: When = "on_success";
  if (raw.when !== undefined) {
    if (allowedWhen.includes(raw.when as When)) when = raw.when as When;
    else errors.push(`${at} when should be one of: ${allowedWhen.join(", ")}`);
  }
  let startInSeconds: number | null = null;
  if (when === "delayed" && !hasRules) {
    const seconds = raw.start_in === undefined ? null : parseDuration(raw.start_in);
    if (seconds === null || seconds === 0) errors.push(`${at} start in should be a duration`);
    else if (seconds > ONE_WEEK) errors.push(`${at} start in should not exceed the limit`);
    else startInSeconds = seconds;
  } else if (raw.start_in !== undefined && !hasRules) {
    errors.push(`${at} start in must be blank`);
  }

  let allowFailure: AllowFailure = when === "manual";
  if (raw.allow_failure !== undefined) {
    if (isBridge && typeof raw.allow_failure !== "boolean") errors.push(`${at} allow failure should be a boolean value`);
    else allowFailure = parseAllowFailure(raw.allow_failure, `${at}:allow_failure`, errors) ?? false;
  }

  const needs = raw.needs === undefined || raw.needs === null ? null : (parseNeeds(raw.needs, `${at}:needs`, errors) ?? null);
  const variables = parseVariables(raw.variables, `${at}:variables`, errors) ?? {};
  const inheritVariables = parseInherit(raw.inherit, `${at}:inherit`, errors);
  const rules = hasRules ? (parseRules(raw.rules, at, "job", errors) ?? null) : null;
  const only = raw.only === undefined || raw.only === null ? null : (parsePolicy(raw.only, `${at}:only`, errors) ?? null);
  const except = raw.except === undefined || raw.except === null ? null : (parsePolicy(raw.except, `${at}:except`, errors) ?? null);
  let interruptible: boolean | null = null;
  if (raw.interruptible !== undefined) {
    if (typeof raw.interruptible === "boolean") interruptible = raw.interruptible;
    else errors.push(`${at}:interruptible config should be a boolean value`);
  }
  let resourceGroup: string | null = null;
  if (raw.resource_group !== undefined) {
    if (typeof raw.resource_group === "string") resourceGroup = raw.resource_group;
    else errors.push(`${at} resource group should be a string`);
  }
  const environment = raw.environment === undefined ? null : (parseEnvironment(raw.environment, `${at}:environment`, errors) ?? null);

  const common: Definition = {
    name,
    stage,
    when,
    startInSeconds,
    allowFailure,
    needs,
    variables,
    inheritVariables,
    rules,
    only,
    except,
    interruptible,
    resourceGroup,
    environment,
  };

  if (isBridge) {
    const trigger = parseTrigger(raw.trigger, `${at}:trigger`, errors);
    if (raw.parallel !== undefined) parseParallel(raw.parallel, `${at}:parallel`, errors);
    return errors.length > before || !trigger ? null : { ...common, kind: "bridge", trigger };
  }

  const script = parseCommands(raw.script, `${at}:script`, errors);
  if (script && script.length === 0) errors.push(`${at} script can't be blank`);
  const commands = (key: string) => (raw[key] === undefined ? [] : (parseCommands(raw[key], `${at}:${key}`, errors) ?? []));

  let dependencies: string[] | null = null;
  if (raw.dependencies !== undefined && raw.dependencies !== null) {
    if (isStringArray(raw.dependencies)) dependencies = raw.dependencies;
    else errors.push(`${at} dependencies should be an array of strings`);
  }
  if (dependencies && needs) {
    const missing = dependencies.filter((d) => !needs.some((n) => n.name === d));
    if (missing.length > 0) errors.push(`${at} dependencies the ${missing.join(", ")} should be part of needs`);
  }

  const job: JobDefinition = {
    ...common,
    kind: "job",
    script: script ?? [],
    beforeScript: commands("before_script"),
    afterScript: commands("after_script"),
    dependencies,
    tags: raw.tags === undefined ? [] : (parseStringList(raw.tags, `${at}:tags`, errors) ?? []),
    timeoutSeconds: raw.timeout === undefined ? null : (parseTimeout(raw.timeout, `${at}:timeout`, errors) ?? null),
    retry: raw.retry === undefined ? null : (parseRetry(raw.retry, `${at}:retry`, errors) ?? null),
    artifacts: raw.artifacts === undefined || raw.artifacts === null ? null : (parseArtifacts(raw.artifacts, `${at}:artifacts`, errors) ?? null),
    image: raw.image === undefined ? null : (parseImage(raw.image, `${at}:image`, errors) ?? null),
    services: raw.services === undefined ? [] : (parseServices(raw.services, `${at}:services`, errors) ?? []),
    coverage: raw.coverage === undefined ? null : (parseCoverage(raw.coverage, `${at}:coverage`, errors) ?? null),
    parallel: raw.parallel === undefined ? null : (parseParallel(raw.parallel, `${at}:parallel`, errors) ?? null),
  };
  return errors.length > before ? null : job;
}

/** `parallel: N` (2..200) or `parallel: matrix:` (a list of hashes of values or value lists). */
function parseParallel(value: unknown, at: string, errors: Errors): JobDefinition["parallel"] | undefined {
  if (typeof value === "number") {
    if (!Number.isInteger(value) || value < 1 || value > MAX_PARALLEL) {
      errors.push(`${at} config must be greater than or equal to 1 and less than or equal to ${MAX_PARALLEL}`);
      return undefined;
    }
    return { total: value, matrix: null };
  }
  if (!isHash(value) || !Array.isArray(value.matrix) || !value.matrix.every(isHash)) {
    errors.push(`${at} should be an integer or a hash`);
    return undefined;
  }
  unknownKeys(value, ["matrix"], at, errors);
  const combos: Record<string, string>[] = [];
  for (const entry of value.matrix as Hash[]) {
    let partial: Record<string, string>[] = [{}];
    for (const [key, values] of Object.entries(entry)) {
      const list = Array.isArray(values) ? values : [values];
      if (!list.every((v) => typeof v === "string" || typeof v === "number")) {
        errors.push(`${at}:matrix config should be an array of hashes of strings or arrays of strings`);
        return undefined;
      }
      partial = partial.flatMap((p) => list.map((v) => ({ ...p, [key]: String(v) })));
    }
    combos.push(...partial);
  }
  if (combos.length > MAX_PARALLEL) {
    errors.push(`${at}:matrix config generates too many jobs (maximum is ${MAX_PARALLEL})`);
    return undefined;
  }
  return { total: combos.length, matrix: combos };
}
