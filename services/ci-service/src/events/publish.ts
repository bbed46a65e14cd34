// Publishes the status changes of a pipeline, its builds and their deployments on the bus
// (quarry.ci.pipeline, quarry.ci.job, quarry.ci.deployment), for hook-service's pipeline, job and
// deployment webhooks. ci-service has no outbox: every processing pass (which follows every job
// status change) claims, in one transaction, the statuses not yet published (the rows'
// `published_status`), syncs the jobs' deployments with them, and publishes after the commit.
// A claimed status is published once; a bus failure after the commit loses that notification
// (logged), as any publish-after-commit does.
import { Subjects } from "@quarry/bus";
import type { CiDeps } from "../deps.ts";
import { HOOKED_DEPLOYMENT_STATUSES, syncDeployments } from "../environments/environments.ts";
import type { Deployment, Job, Pipeline } from "../generated/prisma/client.ts";
import { deploymentEvent, jobEvent, pipelineEvent } from "./payloads.ts";
import { lockPipeline } from "../pipelines/lock.ts";

interface Claimed {
  pipeline: Pipeline | null;
  jobs: Job[];
  deployments: Deployment[];
}

async function claim(deps: CiDeps, pipelineId: number): Promise<Claimed> {
  return deps.prisma.$transaction(async (tx) => {
    // The pipeline before its jobs, as processing and canceling lock them (else they deadlock).
    await lockPipeline(tx, pipelineId);
    // Builds only: GitLab's job hooks are Ci::Build's (bridges have none).
    const jobIds = await tx.$queryRaw<{ id: number }[]>`
      UPDATE jobs SET published_status = status
      WHERE pipeline_id = ${pipelineId} AND type = 'build' AND published_status IS DISTINCT FROM status
      RETURNING id`;
    const jobs = jobIds.length ? await tx.job.findMany({ where: { id: { in: jobIds.map((r) => r.id) } }, orderBy: { id: "asc" } }) : [];
    const deployments = await syncDeployments(tx, pipelineId, jobs);
    const pipelineIds = await tx.$queryRaw<{ id: number }[]>`
      UPDATE pipelines SET published_status = status
      WHERE id = ${pipelineId} AND published_status IS DISTINCT FROM status
      RETURNING id`;
    const pipeline = pipelineIds.length ? await tx.pipeline.findUnique({ where: { id: pipelineId } }) : null;
    return { pipeline, jobs, deployments };
  });
}

/** Publishes what changed in the pipeline since the last call; never throws (a failure is logged). */
export async function publishStatusChanges(deps: CiDeps, pipelineId: number): Promise<void> {
  try {
    const claimed = await claim(deps, pipelineId);
    if (!claimed.pipeline && !claimed.jobs.length && !claimed.deployments.length) return;
    const pipeline = claimed.pipeline ?? (await deps.prisma.pipeline.findUniqueOrThrow({ where: { id: pipelineId } }));
    const jobs = await deps.prisma.job.findMany({ where: { pipelineId }, orderBy: { id: "asc" } });
    const runnerIds = [...new Set(jobs.map((j) => j.runnerId).filter((id): id is number => id !== null))];
    const runners = new Map((runnerIds.length ? await deps.prisma.runner.findMany({ where: { id: { in: runnerIds } } }) : []).map((r) => [r.id, r]));
    const now = new Date();
    for (const job of claimed.jobs) {
      const retries = jobs.filter((j) => j.name === job.name && j.id < job.id).length;
      await deps.events.publish(Subjects.job, jobEvent(job, pipeline, job.runnerId ? runners.get(job.runnerId) : null, retries, now));
    }
    if (claimed.deployments.length) {
      const environments = new Map(
        (await deps.prisma.environment.findMany({ where: { id: { in: claimed.deployments.map((d) => d.environmentId) } } })).map((e) => [e.id, e]),
      );
      const byId = new Map(jobs.map((j) => [j.id, j]));
      for (const d of claimed.deployments) {
        const env = environments.get(d.environmentId);
        const job = byId.get(d.jobId);
        if (env && job && HOOKED_DEPLOYMENT_STATUSES.has(d.status)) await deps.events.publish(Subjects.deployment, deploymentEvent(d, env, job, pipeline));
      }
    }
    if (claimed.pipeline) {
      const archives = await deps.prisma.jobArtifact.findMany({ where: { jobId: { in: jobs.map((j) => j.id) }, fileType: "archive" } });
      const environments = await deps.prisma.environment.findMany({ where: { projectId: pipeline.projectId, deployments: { some: { pipelineId } } } });
      const stages = [...new Map(jobs.toSorted((a, b) => a.stageIdx - b.stageIdx).map((j) => [j.stage, j.stage])).keys()];
      await deps.events.publish(
        Subjects.pipeline,
        pipelineEvent(
          {
            pipeline,
            jobs,
            runners,
            archives: new Map(archives.map((a) => [a.jobId, a])),
            environments: new Map(environments.map((e) => [e.name, e])),
            stages,
          },
          now,
        ),
      );
    }
  } catch (err) {
    deps.log.warn({ err, pipelineId }, "publishing pipeline status changes failed");
  }
}
