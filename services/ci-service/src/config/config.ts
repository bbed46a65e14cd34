/**
 * The static half of pipeline creation (GitLab's Ci::Config + YamlProcessor): YAML, includes,
 * extends, !reference, entry validation and the logical checks (stages, needs, dependencies).
 * Everything here is independent of which jobs rules later select.
 */
import { DEFAULT_KEYS, isRunnable, parseDefaults, parseJob, type Definitionish } from "./job.ts";
import { type Errors, parseVariables, unknownKeys } from "./entries.ts";
import { resolveExtends, resolveReferences } from "./extends.ts";
import { expandIncludes } from "./include.ts";
import { loadYaml } from "./load-yaml.ts";
import { instancesOf } from "./parallel.ts";
import { predefinedVariables } from "./predefined.ts";
import { parseRules, type Rule } from "./rules.ts";
import type { PipelineContext } from "./types.ts";
import { inspectList, isHash, isStringArray, type Hash } from "./util.ts";

export const DEFAULT_STAGES = ["build", "test", "deploy"];

/** Top-level keys that are not jobs. */
const RESERVED = ["image", "services", "stages", "types", "before_script", "after_script", "variables", "cache", "include", "default", "workflow", "spec"];
/** Keys that may still be set at the top level instead of under `default:`. */
const LEGACY_DEFAULTS = ["image", "services", "cache", "before_script", "after_script"];

export interface PipelineConfig {
  /** With .pre first and .post last. */
  stages: string[];
  variables: Record<string, string>;
  workflow: { rules: Rule[] | null; name: string | null };
  jobs: Definitionish[];
}

export type ConfigResult = { ok: true; config: PipelineConfig } | { ok: false; errors: string[] };

/** `ctx` supplies local includes and the variables `include:rules` are evaluated with. */
export function compileConfig(yamlText: string, ctx: PipelineContext): ConfigResult {
  if (yamlText.trim() === "") return { ok: false, errors: ["Please provide content of .gitlab-ci.yml"] };
  const loaded = loadYaml(yamlText);
  if (!loaded.ok) return { ok: false, errors: [loaded.error] };
  if (!isHash(loaded.value)) return { ok: false, errors: ["Invalid configuration format"] };

  const errors: Errors = [];
  const includeVars = { ...predefinedVariables(ctx), ...ctx.variables };
  const expanded = expandIncludes(loaded.value, ctx, includeVars, errors);
  if (errors.length > 0) return { ok: false, errors };
  const root = resolveReferences(resolveExtends(expanded, errors), errors);
  if (errors.length > 0) return { ok: false, errors };

  const config = parseRoot(root, errors);
  if (errors.length > 0) return { ok: false, errors };
  validateLogic(config, errors);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, config };
}

function parseRoot(root: Hash, errors: Errors): PipelineConfig {
  let declared = DEFAULT_STAGES;
  const stagesValue = root.stages ?? root.types;
  if (stagesValue !== undefined && stagesValue !== null) {
    if (isStringArray(stagesValue)) declared = stagesValue;
    else errors.push("stages config should be an array of strings");
  }
  const stages = [".pre", ...declared.filter((s) => s !== ".pre" && s !== ".post"), ".post"];
  const variables = parseVariables(root.variables, "variables", errors) ?? {};

  const legacy: Hash = {};
  for (const key of LEGACY_DEFAULTS) if (root[key] !== undefined) legacy[key] = root[key];
  let defaults = parseDefaults(legacy, "", LEGACY_DEFAULTS, errors);
  if (root.default !== undefined && root.default !== null) {
    if (isHash(root.default)) defaults = { ...defaults, ...parseDefaults(root.default, "default", DEFAULT_KEYS, errors) };
    else errors.push("default config should be a hash");
  }

  const workflow = parseWorkflow(root.workflow, errors);

  const jobs: Definitionish[] = [];
  let visible = false;
  for (const [name, value] of Object.entries(root)) {
    if (RESERVED.includes(name) || name.startsWith(".")) continue;
    if (!isRunnable(value)) {
      errors.push(`jobs ${name} config should implement a script: or a trigger: keyword`);
      continue;
    }
    visible = true;
    const job = parseJob(name, value, defaults, errors);
    if (job) jobs.push(job);
  }
  if (!visible) errors.push("jobs config should contain at least one visible job");
  return { stages, variables, workflow, jobs };
}

function parseWorkflow(value: unknown, errors: Errors): PipelineConfig["workflow"] {
  const workflow: PipelineConfig["workflow"] = { rules: null, name: null };
  if (value === undefined || value === null) return workflow;
  if (!isHash(value)) {
    errors.push("workflow config should be a hash");
    return workflow;
  }
  unknownKeys(value, ["rules", "name", "auto_cancel"], "workflow", errors);
  if (value.rules !== undefined && value.rules !== null) {
    workflow.rules = parseRules(value.rules, "workflow", "workflow", errors) ?? null;
  }
  if (value.name !== undefined) {
    if (typeof value.name === "string") workflow.name = value.name;
    else errors.push("workflow name should be a string");
  }
  return workflow;
}

/** GitLab's YamlProcessor logical validations, every failure reported. */
function validateLogic(config: PipelineConfig, errors: Errors): void {
  // Needs and dependencies may name a parallel job as a whole or one of its instances.
  const byName = new Map<string, Definitionish>();
  for (const job of config.jobs) {
    byName.set(job.name, job);
    for (const instance of instancesOf(job)) byName.set(instance.name, job);
  }
  const stageIndex = (name: string) => config.stages.indexOf(byName.get(name)?.stage ?? "");

  const checkDependency = (job: Definitionish, other: string, type: "need" | "dependency", optional = false) => {
    if (!byName.has(other)) {
      // An optional need may point at a job an include or rule left out.
      if (!optional) errors.push(`${job.name} job: undefined ${type}: ${other}`);
      return;
    }
    const otherIdx = stageIndex(other);
    if (otherIdx < 0 || otherIdx > stageIndex(job.name)) {
      errors.push(`${job.name} job: ${type} ${other} is not defined in current or prior stages`);
    }
  };
  const checkNeeds = (job: Definitionish, needs: readonly { name: string; optional: boolean }[] | null | undefined) => {
    if (!needs) return;
    for (const need of needs) checkDependency(job, need.name, "need", need.optional);
    const seen = new Set<string>();
    const duplicated = [...new Set(needs.map((n) => n.name).filter((n) => seen.has(n) || !seen.add(n)))];
    if (duplicated.length > 0) errors.push(`${job.name} has the following needs duplicated: ${duplicated.join(", ")}.`);
  };

  for (const job of config.jobs) {
    if (!config.stages.includes(job.stage)) {
      errors.push(`${job.name} job: chosen stage ${job.stage} does not exist; available stages are ${config.stages.join(", ")}`);
      continue;
    }
    if (job.kind === "job") for (const dep of job.dependencies ?? []) checkDependency(job, dep, "dependency");
    else for (const inc of job.trigger.include) if ("job" in inc) checkDependency(job, inc.job, "dependency");
    checkNeeds(job, job.needs);
    for (const rule of job.rules ?? []) checkNeeds(job, rule.needs);
  }
  if (errors.length === 0) checkCycles(config.jobs, errors);
}

/** Same-stage needs allow cycles; GitLab rejects them with Ruby's TSort message. */
function checkCycles(jobs: readonly Definitionish[], errors: Errors): void {
  const edges = new Map(jobs.map((j) => [j.name, (j.needs ?? []).map((n) => n.name)]));
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const visit = (name: string): string[] | null => {
    if (state.get(name) === "done" || !edges.has(name)) return null;
    if (state.get(name) === "visiting") return stack.slice(stack.indexOf(name));
    state.set(name, "visiting");
    stack.push(name);
    for (const next of edges.get(name)!) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(name, "done");
    return null;
  };
  for (const name of edges.keys()) {
    const cycle = visit(name);
    if (cycle) {
      const detail = cycle.length === 1 ? `self-dependency: ${cycle[0]}` : `topological sort failed: ${inspectList(cycle)}`;
      errors.push(`The pipeline has circular dependencies: ${detail}`);
      return;
    }
  }
}
