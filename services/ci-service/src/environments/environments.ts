// Environments and deployments from jobs' `environment:` (GitLab's Seed::Environment and
// Seed::Deployment at pipeline creation, Deployment#sync_status_with as jobs move on).
import { createHash } from "node:crypto";
import type { CompiledEnvironment } from "../config/index.ts";
import { expandVariables } from "../config/index.ts";
import type { Tx } from "../deps.ts";
import type { Deployment, Job } from "../generated/prisma/client.ts";

/** An environment's tier (Environment.tiers). */
export type Tier = "production" | "staging" | "testing" | "development" | "other";

/** Deployment statuses (Deployment.statuses). */
export const DEPLOYMENT_STATUSES = ["created", "running", "success", "failed", "canceled", "skipped", "blocked"] as const;
/** Deployment statuses that end it (finished_at is set). */
const FINISHED = new Set(["success", "failed", "canceled"]);
/** Statuses that fire deployment hooks (GitLab's Deployment after_transition to running or a finished status). */
export const HOOKED_DEPLOYMENT_STATUSES = new Set(["running", "success", "failed", "canceled"]);

/** GitLab's Environment#guess_tier, first match wins. */
export function guessTier(name: string): Tier {
  if (/(dev|review|trunk)/i.test(name)) return "development";
  if (/(test|tst|int|ac(ce|)pt|qa|qc|control|quality)/i.test(name)) return "testing";
  if (/(st(a|)g|mod(e|)l|pre|demo|non)/i.test(name)) return "staging";
  if (/(pr(o|)d|live)/i.test(name)) return "production";
  return "other";
}

/**
 * Gitlab::Slug::Environment: lowercase, non-alphanumerics to "-", starting with a letter,
 * no repeated dashes; a slug that is long or differs from the name gets 17 characters and a
 * 6-character suffix from the name's SHA-256, so distinct names keep distinct slugs.
 */
export function environmentSlug(name: string): string {
  let slug = name.toLowerCase().replace(/[^a-z0-9]/g, "-");
  if (!/^[a-z]/.test(slug)) slug = `env-${slug}`;
  slug = slug.replace(/-+/g, "-");
  if (slug.length <= 24 && slug === name) return slug.replace(/-$/, "");
  const suffix = BigInt(`0x${createHash("sha256").update(name).digest("hex")}`)
    .toString(36)
    .slice(-6);
  const short = slug.slice(0, 17);
  return `${short}${short.endsWith("-") ? "" : "-"}${suffix}`;
}

/** `environment:` with its name and url expanded with the job's variables ($CI_COMMIT_REF_SLUG, …). */
export function expandEnvironment(env: CompiledEnvironment, variables: Record<string, string>): CompiledEnvironment {
  return {
    name: expandVariables(env.name, variables),
    ...(env.url !== undefined ? { url: expandVariables(env.url, variables) } : {}),
    action: env.action ?? "start",
  };
}

/** The expanded `environment:` of a stored job (store.ts keeps it in options), or null. */
export const jobEnvironment = (job: Pick<Job, "options">): CompiledEnvironment | null =>
  ((job.options as { environment?: CompiledEnvironment | null }).environment ?? null) as CompiledEnvironment | null;

/**
 * For the new jobs of a pipeline naming an environment: the environment (found or created;
 * a job's url replaces the stored one) and, for jobs that start it (action `start`), a deployment
 * in status `created`. Runs in the pipeline's creation transaction.
 */
export async function createEnvironmentsAndDeployments(tx: Tx, pipelineId: number): Promise<void> {
  const jobs = await tx.job.findMany({ where: { pipelineId, type: "build" }, orderBy: { id: "asc" } });
  for (const job of jobs) await createEnvironmentAndDeployment(tx, job);
}

/**
 * The environment and deployment of one new build (a pipeline's, or a retry's clone: GitLab gives
 * every try of a deploying job its own deployment); nothing for jobs without `environment:`.
 */
export async function createEnvironmentAndDeployment(tx: Tx, job: Job): Promise<void> {
  const env = jobEnvironment(job);
  if (job.type !== "build" || !env?.name) return;
  const environment = await tx.environment.upsert({
    where: { projectId_name: { projectId: job.projectId, name: env.name } },
    create: { projectId: job.projectId, name: env.name, slug: environmentSlug(env.name), tier: guessTier(env.name), externalUrl: env.url ?? null },
    update: env.url ? { externalUrl: env.url } : {},
  });
  if ((env.action ?? "start") !== "start") return;
  const pipeline = await tx.pipeline.findUniqueOrThrow({ where: { id: job.pipelineId } });
  const counter = await tx.deploymentCounter.upsert({
    where: { projectId: job.projectId },
    create: { projectId: job.projectId, lastIid: 1 },
    update: { lastIid: { increment: 1 } },
  });
  await tx.deployment.create({
    data: {
      iid: counter.lastIid,
      projectId: job.projectId,
      environmentId: environment.id,
      jobId: job.id,
      pipelineId: job.pipelineId,
      ref: (pipeline.mergeRequest as { source_branch?: string } | null)?.source_branch ?? pipeline.ref,
      tag: pipeline.tag,
      sha: pipeline.sha,
      userId: job.userId,
    },
  });
}

/** Deployment#sync_status_with: the deployment status a job status maps to, or null when none does. */
export function deploymentStatusFor(jobStatus: string): string | null {
  const status = jobStatus === "manual" ? "blocked" : jobStatus;
  return (DEPLOYMENT_STATUSES as readonly string[]).includes(status) ? status : null;
}

/**
 * Brings the deployments of a pipeline's jobs in line with the jobs' statuses and moves their
 * environments (a running deployment makes its environment available again; a successful job
 * with action `stop` stops it). Returns the deployments whose status changed.
 */
export async function syncDeployments(
  tx: Tx,
  pipelineId: number,
  changedJobs: readonly Pick<Job, "id" | "status" | "options" | "projectId">[],
): Promise<Deployment[]> {
  const changed: Deployment[] = [];
  if (!changedJobs.length) return changed;
  const deployments = await tx.deployment.findMany({ where: { pipelineId, jobId: { in: changedJobs.map((j) => j.id) } } });
  const byJob = new Map(deployments.map((d) => [d.jobId, d]));
  const now = new Date();
  for (const job of changedJobs) {
    const deployment = byJob.get(job.id);
    const status = deploymentStatusFor(job.status);
    if (deployment && status && status !== deployment.status) {
      const updated = await tx.deployment.update({
        where: { id: deployment.id },
        data: { status, finishedAt: FINISHED.has(status) ? now : null },
      });
      changed.push(updated);
      if (status === "running") await tx.environment.update({ where: { id: deployment.environmentId }, data: { state: "available" } });
    }
    const env = jobEnvironment(job);
    if (env?.action === "stop" && job.status === "success") {
      await tx.environment.updateMany({ where: { projectId: job.projectId, name: env.name }, data: { state: "stopped" } });
    }
  }
  return changed;
}
