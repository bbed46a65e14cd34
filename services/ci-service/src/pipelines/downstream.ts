// Child pipelines (GitLab's CreateDownstreamPipelineService and the bridge's `strategy: depend`):
// a pending bridge stores its child pipeline, and a depending bridge follows the child's status.
// Processing (process.ts) calls in here and is handed back as `process`: the recursion between
// processing a pipeline and creating its children runs through that argument, not an import.
import { stringify } from "yaml";
import type { CiDeps } from "../deps.ts";
import type { Job, Pipeline } from "../generated/prisma/client.ts";
import { isComplete, type JobStatus } from "../processing/index.ts";
import { storePipeline, type PipelineVariable } from "./store.ts";

/** One processing pass over a pipeline: process.ts's processPipelineById. */
export type ProcessPipeline = (deps: CiDeps, pipelineId: number) => Promise<void>;

interface BridgeTrigger {
  include: ({ local: string } | { artifact: string; job: string })[];
  strategy: "depend" | null;
  forward: { yamlVariables: boolean; pipelineVariables: boolean };
}

/**
 * A pending bridge creates its child pipeline (GitLab's CreateDownstreamPipelineService): the
 * child compiles the bridge's `trigger: include:` at the parent's commit. Without
 * `strategy: depend` the bridge succeeds once the child exists; with it, it follows the child.
 */
export async function triggerChildPipeline(deps: CiDeps, bridge: Job, parent: Pipeline, process: ProcessPipeline): Promise<void> {
  const trigger = (bridge.options as { trigger?: BridgeTrigger }).trigger;
  const fail = (reason: string) => setBridgeStatus(deps, bridge.id, process, "failed", reason);
  if (!trigger || trigger.include.length === 0 || trigger.include.some((i) => !("local" in i))) {
    return fail("downstream_pipeline_creation_failed");
  }
  const project = await deps.projects.getProject(parent.projectId, bridge.userId);
  if (!project) return fail("downstream_pipeline_creation_failed");
  const variables: PipelineVariable[] = [];
  if (trigger.forward.yamlVariables) {
    for (const [key, value] of Object.entries(bridge.variables as Record<string, string>)) variables.push({ key, value, variable_type: "env_var" });
  }
  if (trigger.forward.pipelineVariables) variables.push(...(parent.variables as unknown as PipelineVariable[]));
  const outcome = await storePipeline(deps, {
    project,
    ref: parent.ref,
    tag: parent.tag,
    sha: parent.sha,
    beforeSha: parent.beforeSha,
    source: "parent_pipeline",
    userId: bridge.userId,
    refProtected: parent.protected,
    variables,
    saveOnErrors: true,
    parent: { pipelineId: parent.id, jobId: bridge.id, yaml: stringify({ include: trigger.include }) },
  });
  if (!("created" in outcome) || outcome.created.yamlErrors) {
    if ("created" in outcome) await deps.prisma.job.update({ where: { id: bridge.id }, data: { downstreamPipelineId: outcome.created.id } });
    return fail("downstream_pipeline_creation_failed");
  }
  await process(deps, outcome.created.id);
  const child = await deps.prisma.pipeline.findUniqueOrThrow({ where: { id: outcome.created.id } });
  await deps.prisma.job.update({ where: { id: bridge.id }, data: { downstreamPipelineId: child.id } });
  if (trigger.strategy === "depend") await mirrorChildStatus(deps, child, process);
  else await setBridgeStatus(deps, bridge.id, process, "success");
}

/** A `strategy: depend` bridge takes its child pipeline's status (running, then the outcome). */
export async function mirrorChildStatus(deps: CiDeps, child: Pipeline, process: ProcessPipeline): Promise<void> {
  if (!child.parentJobId) return;
  const bridge = await deps.prisma.job.findUnique({ where: { id: child.parentJobId } });
  const trigger = (bridge?.options as { trigger?: BridgeTrigger } | undefined)?.trigger;
  if (!bridge || trigger?.strategy !== "depend" || isComplete(bridge.status as JobStatus)) return;
  const status = child.status as JobStatus;
  if (isComplete(status)) return setBridgeStatus(deps, bridge.id, process, status);
  if (status === "running" && bridge.status !== "running") {
    await deps.prisma.job.update({ where: { id: bridge.id }, data: { status: "running", startedAt: new Date() } });
  }
}

/** Moves a bridge to a final status and reprocesses its pipeline. */
async function setBridgeStatus(deps: CiDeps, bridgeId: number, process: ProcessPipeline, status: JobStatus, failureReason?: string): Promise<void> {
  const now = new Date();
  const bridge = await deps.prisma.job.update({ where: { id: bridgeId }, data: { status, failureReason: failureReason ?? null, finishedAt: now } });
  if (!bridge.startedAt) await deps.prisma.job.update({ where: { id: bridgeId }, data: { startedAt: now } });
  await process(deps, bridge.pipelineId);
}
