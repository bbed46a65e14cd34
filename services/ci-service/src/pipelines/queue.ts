// Handing pending jobs to runners (GitLab's Ci::RegisterJobService). One statement picks and
// locks the oldest job this runner may take, skipping rows other requests have locked, so any
// number of ci-service replicas never hand one job to two runners. Instance runners serve every
// project, project runners their project, group runners the projects of their group and its
// subgroups (GitLab's builds_for_group_runner).
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

/**
 * The projects whose jobs a runner may take: one project for a project runner, every project
 * below its group (subgroups included, asked of identity-service now) for a group runner, any
 * project (null) for an instance runner.
 */
async function servedProjects(deps: CiDeps, runner: Runner): Promise<number[] | null> {
  if (runner.runnerType === "project_type") return runner.projectId === null ? [] : [runner.projectId];
  if (runner.runnerType === "group_type") return runner.groupId === null ? [] : deps.projects.groupProjectIds(runner.groupId);
  return null;
}

/** Whether any pending build matches the runner's tags and protection, whatever its project. */
async function anyPendingFor(deps: CiDeps, runner: Runner): Promise<boolean> {
  const rows = await deps.prisma.$queryRaw<{ id: number }[]>`
    SELECT j.id FROM jobs j JOIN pipelines p ON p.id = j.pipeline_id
    WHERE j.status = 'pending' AND j.type = 'build' AND j.runner_id IS NULL
      AND j.tag_list <@ ${runner.tagList}::text[]
      AND (cardinality(j.tag_list) > 0 OR ${runner.runUntagged})
      AND (${runner.accessLevel} <> 'ref_protected' OR p.protected)
    LIMIT 1`;
  return rows.length > 0;
}

export async function claimJob(deps: CiDeps, runner: Runner, manager: RunnerManager): Promise<ClaimedJob | null> {
  if (runner.paused) return null;
  // A group runner's projects cost identity-service a call: an idle queue (the usual answer to a
  // long poll) is found out first without it.
  if (runner.runnerType === "group_type" && !(await anyPendingFor(deps, runner))) return null;
  const projectIds = await servedProjects(deps, runner);
  if (projectIds?.length === 0) return null;
  const token = newJobToken();
  const now = new Date();
  const claimed = await deps.prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: number }[]>`
      SELECT j.id FROM jobs j JOIN pipelines p ON p.id = j.pipeline_id
      WHERE j.status = 'pending' AND j.type = 'build' AND j.runner_id IS NULL
        AND (${projectIds === null}::boolean OR j.project_id = ANY(${projectIds ?? []}::int[]))
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
