// Handing pending jobs to runners (GitLab's Ci::RegisterJobService). One statement picks and
// locks the oldest job this runner may take, skipping rows other requests have locked, so any
// number of ci-service replicas never hand one job to two runners.
import type { CiDeps } from "../deps.ts";
import type { Job, Runner, RunnerManager } from "../generated/prisma/client.ts";
import { tokenDigest } from "../token-digest.ts";
import { newJobToken } from "./job-token.ts";
import { processPipelineById } from "./process.ts";

export interface ClaimedJob {
  job: Job;
  /** The CI_JOB_TOKEN, known only now: the database keeps its digest. */
  token: string;
}

export async function claimJob(deps: CiDeps, runner: Runner, manager: RunnerManager): Promise<ClaimedJob | null> {
  if (runner.paused || runner.runnerType === "group_type") return null;
  const token = newJobToken();
  const now = new Date();
  const claimed = await deps.prisma.$transaction(async (tx) => {
    const projectId = runner.runnerType === "project_type" ? runner.projectId : null;
    const rows = await tx.$queryRaw<{ id: number }[]>`
      SELECT j.id FROM jobs j JOIN pipelines p ON p.id = j.pipeline_id
      WHERE j.status = 'pending' AND j.type = 'build' AND j.runner_id IS NULL
        AND (${projectId}::int IS NULL OR j.project_id = ${projectId}::int)
        AND j.tag_list <@ ${runner.tagList}::text[]
        AND (cardinality(j.tag_list) > 0 OR ${runner.runUntagged})
        AND (${runner.accessLevel} <> 'ref_protected' OR p.protected)
      ORDER BY j.id
      LIMIT 1
      FOR UPDATE OF j SKIP LOCKED`;
    if (rows.length === 0) return null;
    return tx.job.update({
      where: { id: rows[0]!.id },
      data: {
        status: "running",
        startedAt: now,
        runnerId: runner.id,
        runnerManagerId: manager.id,
        tokenDigest: tokenDigest(token),
        lastRunnerContactAt: now,
      },
    });
  });
  if (!claimed) return null;
  await processPipelineById(deps, claimed.pipelineId);
  return { job: claimed, token };
}
