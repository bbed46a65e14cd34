/**
 * The dynamic half of pipeline creation (GitLab's Seed::Pipeline): workflow rules, each job's
 * rules or only/except against the pipeline's ref, source and variables, then the needs of
 * the jobs that remain.
 */
import type { PipelineConfig } from "./config.ts";
import type { Definitionish } from "./job.ts";
import { DEFAULT_ONLY, policyAnySatisfied, policySatisfied } from "./only-except.ts";
import { instancesOf, type Instance } from "./parallel.ts";
import { predefinedVariables } from "./predefined.ts";
import { matchRule } from "./rules.ts";
import type { AllowFailure, CompiledBridge, CompiledJob, CompiledNeed, CompileResult, PipelineContext, When } from "./types.ts";

export const WORKFLOW_FILTERED = "Pipeline filtered out by workflow rules.";
export const NO_JOBS = "Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.";

interface Seed {
  def: Definitionish;
  instance: Instance;
  when: Exclude<When, "never">;
  allowFailure: AllowFailure;
  needs: CompiledNeed[] | null;
  startInSeconds: number | null;
  interruptible: boolean | null;
  variables: Record<string, string>;
}

export function seedPipeline(config: PipelineConfig, ctx: PipelineContext): CompileResult {
  const predefined = predefinedVariables(ctx);
  let globals = config.variables;
  if (config.workflow.rules) {
    const rule = matchRule(config.workflow.rules, { ...predefined, ...globals, ...ctx.variables }, ctx);
    if (!rule || rule.when === "never") {
      return { status: "filtered", reason: "workflow_rules", message: WORKFLOW_FILTERED };
    }
    globals = { ...globals, ...rule.variables };
  }
  const workflowVariables = { ...globals };

  const seeds: Seed[] = [];
  for (const def of config.jobs) {
    for (const instance of instancesOf(def)) {
      const seed = seedJob(def, instance, inherited(globals, def.inheritVariables), predefined, config, ctx);
      if (seed) seeds.push(seed);
    }
  }
  if (seeds.every((s) => s.def.stage === ".pre" || s.def.stage === ".post")) {
    return { status: "filtered", reason: "no_jobs", message: NO_JOBS };
  }

  const errors: string[] = [];
  const present = namesPresent(seeds);
  for (const seed of seeds) seed.needs = resolveNeeds(seed, present, errors);
  if (errors.length > 0) return { status: "invalid", errors };

  const stageIdx = (s: Seed) => config.stages.indexOf(s.def.stage);
  const ordered = seeds.map((s, i) => ({ s, i })).sort((a, b) => stageIdx(a.s) - stageIdx(b.s) || a.i - b.i);
  const jobs: CompiledJob[] = [];
  const bridges: CompiledBridge[] = [];
  for (const { s } of ordered) {
    const common = {
      name: s.instance.name,
      stage: s.def.stage,
      stageIdx: stageIdx(s),
      when: s.when,
      allowFailure: s.allowFailure,
      needs: s.needs,
      variables: s.variables,
      startInSeconds: s.startInSeconds,
      interruptible: s.interruptible,
      resourceGroup: s.def.resourceGroup,
      environment: s.def.environment,
    };
    if (s.def.kind === "bridge") {
      bridges.push({ ...common, ...s.def.trigger });
      continue;
    }
    const def = s.def;
    jobs.push({
      ...common,
      script: def.script,
      beforeScript: def.beforeScript,
      afterScript: def.afterScript,
      dependencies: def.dependencies ? def.dependencies.flatMap((d) => present.get(d) ?? []) : null,
      tags: def.tags,
      timeoutSeconds: def.timeoutSeconds,
      retry: def.retry,
      artifacts: def.artifacts,
      image: def.image,
      services: def.services,
      coverage: def.coverage,
      parallel: s.instance.parallel,
    });
  }
  return {
    status: "pipeline",
    pipeline: {
      stages: config.stages,
      jobs,
      bridges,
      workflow: {
        name: config.workflow.name && expandVariables(config.workflow.name, { ...predefined, ...workflowVariables, ...ctx.variables }),
        variables: workflowVariables,
      },
    },
  };
}

/** `inherit: variables:` false, true or a list of names. */
function inherited(globals: Record<string, string>, inherit: boolean | string[]): Record<string, string> {
  if (inherit === true) return { ...globals };
  if (inherit === false) return {};
  return Object.fromEntries(Object.entries(globals).filter(([k]) => inherit.includes(k)));
}

function seedJob(
  def: Definitionish,
  instance: Instance,
  globals: Record<string, string>,
  predefined: Record<string, string>,
  config: PipelineConfig,
  ctx: PipelineContext,
): Seed | null {
  let variables = { ...globals, ...def.variables, ...instance.variables };
  const jobPredefined = { ...predefined, CI_JOB_NAME: instance.name, CI_JOB_STAGE: def.stage };
  const evalVars = () => ({ ...jobPredefined, ...variables, ...ctx.variables });
  let when: When = def.when;
  let allowFailure = def.allowFailure;
  let needs = def.needs;
  let startInSeconds = def.startInSeconds;
  let interruptible = def.interruptible;

  if (def.rules) {
    const rule = matchRule(def.rules, evalVars(), ctx);
    if (!rule) return null;
    when = rule.when ?? def.when;
    // A rule's `when: manual` does not make the job allowed to fail (unlike the job keyword).
    if (rule.allowFailure !== undefined) allowFailure = rule.allowFailure;
    variables = { ...variables, ...rule.variables };
    needs = rule.needs ?? needs;
    startInSeconds = rule.startInSeconds ?? startInSeconds;
    interruptible = rule.interruptible ?? interruptible;
  } else {
    const only = def.only ?? (config.workflow.rules ? null : DEFAULT_ONLY);
    const vars = evalVars();
    if (only && !policySatisfied(only, vars, ctx)) return null;
    if (def.except && policyAnySatisfied(def.except, vars, ctx)) return null;
  }
  if (when === "never") return null;
  return { def, instance, when, allowFailure, needs, startInSeconds, interruptible, variables };
}

/** Job names in the pipeline, plus each parallel job's base name → its instances. */
function namesPresent(seeds: readonly Seed[]): Map<string, string[]> {
  const present = new Map<string, string[]>();
  for (const { def, instance } of seeds) {
    present.set(instance.name, [instance.name]);
    if (instance.parallel) present.set(def.name, [...(present.get(def.name) ?? []), instance.name]);
  }
  return present;
}

function resolveNeeds(seed: Seed, present: Map<string, string[]>, errors: string[]): CompiledNeed[] | null {
  if (!seed.needs) return null;
  const out: CompiledNeed[] = [];
  for (const need of seed.needs) {
    const names = present.get(need.name);
    if (names) {
      for (const name of names) out.push({ ...need, name });
    } else if (!need.optional) {
      const job = seed.instance.name;
      errors.push(
        `'${job}' job needs '${need.name}' job, but '${need.name}' does not exist in the pipeline. ` +
          "This might be because of the only, except, or rules keywords. " +
          "To need a job that sometimes does not exist in the pipeline, use needs:optional.",
      );
    }
  }
  return out;
}

/** `$VAR` and `${VAR}` expansion (workflow:name); unknown variables become empty. */
export function expandVariables(text: string, vars: Record<string, string>): string {
  return text.replace(/\$(?:\{(\w+)\}|(\w+))/g, (_, braced: string | undefined, bare: string | undefined) => vars[(braced ?? bare)!] ?? "");
}
