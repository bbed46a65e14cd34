import { badRequest } from "@quarry/grpc";
import type { Job } from "@quarry/proto/types/ci/v1/Job";
import type { JobRequest__Output } from "@quarry/proto/types/ci/v1/JobRequest";
import type { CiDeps } from "../deps.ts";
import { lockPipeline, pipelineJobs, processPipelineById, startEnqueued, toProcessable } from "../pipelines/process.ts";
import { persistRetryPlan } from "../pipelines/retry.ts";
import { playJob as planPlay } from "../processing/index.ts";
import { currentJobMessage, findJob } from "./actions.ts";

/**
 * POST /projects/:id/jobs/:job_id/play (GitLab's Ci::PlayBuildService and PlayBridgeService): a
 * manual job waiting for its play is enqueued by the caller, with `job_variables_attributes`
 * added to its variables; a finished manual job is retried that way instead. Answers the played
 * job, as GitLab does; 400 "Unplayable Job" for anything else.
 */
export const playJob =
  (deps: CiDeps) =>
  async (req: JobRequest__Output): Promise<Job> => {
    const job = await findJob(deps, Number(req.projectId), Number(req.jobId));
    const userId = Number(req.userId) || job.userId;
    const played = await deps.prisma.$transaction(async (tx) => {
      const pipeline = await lockPipeline(tx, job.pipelineId);
      const jobs = await pipelineJobs(tx, job.pipelineId);
      const plan = planPlay(jobs.map(toProcessable), job.id);
      if (!plan) throw badRequest("400 Bad request - Unplayable Job");
      const clones = await persistRetryPlan(tx, jobs, plan, userId);
      const own = jobs.find((j) => j.id === job.id)!.variables as Record<string, string>;
      const variables = { ...own, ...Object.fromEntries(req.jobVariables.map((v) => [v.key, v.value])) };
      const runs = await tx.job.update({ where: { id: clones.get(job.id)?.id ?? job.id }, data: { userId, variables } });
      return { pipeline: pipeline!, runs };
    });
    // A job that went straight to pending (not a clone, which processing enqueues) must be started here.
    if (played.runs.id === job.id && played.runs.status === "pending") await startEnqueued(deps, played.pipeline, [played.runs]);
    await processPipelineById(deps, job.pipelineId);
    return currentJobMessage(deps, job.id);
  };
