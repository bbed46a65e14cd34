// Persistence of the retry and play plans (src/processing/retry.ts), and GitLab's reset of a
// `strategy: depend` bridge when its child pipeline is retried.
import type { CiDeps } from "../deps.ts";
import { createEnvironmentAndDeployment } from "../environments/environments.ts";
import type { Tx } from "../deps.ts";
import type { Job, Pipeline } from "../generated/prisma/client.ts";
import { isComplete, resetSkippedJobs, type JobStatus, type RetryPlan } from "../processing/index.ts";
import { cloneForRetry } from "./finish.ts";
import { applyStatusChanges, lockPipeline, pipelineJobs, processPipelineById, toProcessable } from "./process.ts";

/**
 * Stores a plan made from `jobs` (the locked pipeline's rows): each original becomes `retried`
 * and gets a `created` clone started by `userId`, then the status changes are applied. Returns
 * the clones by original id. The caller processes the pipeline afterwards.
 */
export async function persistRetryPlan(tx: Tx, jobs: readonly Job[], plan: RetryPlan, userId: number): Promise<Map<number, Job>> {
  const byId = new Map(jobs.map((j) => [j.id, j]));
  const clones = new Map<number, Job>();
  for (const { retryOf, enqueueImmediately } of plan.clones) {
    const original = byId.get(retryOf)!;
    await tx.job.update({ where: { id: original.id }, data: { retried: true } });
    // GitLab's retries_count counts every earlier try of the job, manual retries included.
    const clone = cloneForRetry(original, { retryCount: original.retryCount + 1, enqueueImmediately, userId: userId || original.userId });
    const created = await tx.job.create({ data: clone });
    await createEnvironmentAndDeployment(tx, created);
    clones.set(original.id, created);
  }
  await applyStatusChanges(tx, plan.changes);
  return clones;
}

const dependsOnChild = (bridge: Job): boolean => (bridge.options as { trigger?: { strategy?: string | null } }).trigger?.strategy === "depend";

/**
 * GitLab's Pipeline#reset_source_bridge!: once a child pipeline runs again, the finished
 * `strategy: depend` bridge that started it goes back to `pending` (the parent's skipped jobs
 * after it are reset) and follows the child again; the same goes on up the pipeline tree. The
 * caller processes `pipeline` itself afterwards.
 */
export async function resetSourceBridges(deps: CiDeps, pipeline: Pipeline): Promise<void> {
  const parents: number[] = [];
  for (let child = pipeline; child.parentJobId; ) {
    const source = await deps.prisma.job.findUnique({ where: { id: child.parentJobId } });
    if (!source) break;
    const parent = await deps.prisma.$transaction(async (tx) => {
      const locked = await lockPipeline(tx, source.pipelineId);
      const rows = await pipelineJobs(tx, source.pipelineId);
      const bridge = rows.find((j) => j.id === source.id);
      if (!locked || !bridge || bridge.retried || !dependsOnChild(bridge) || !isComplete(bridge.status as JobStatus)) return null;
      const requeued = rows.map(toProcessable).map((j) => (j.id === bridge.id ? { ...j, status: "pending" as const } : j));
      await applyStatusChanges(tx, [{ id: bridge.id, from: bridge.status as JobStatus, to: "pending" }, ...resetSkippedJobs(requeued, [bridge.id])]);
      return locked;
    });
    if (!parent) break;
    parents.push(parent.id);
    child = parent;
  }
  // Top down: each pipeline's new status then reaches a bridge that already follows it again.
  for (const id of parents.toReversed()) await processPipelineById(deps, id);
}
