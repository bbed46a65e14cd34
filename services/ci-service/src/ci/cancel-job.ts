import type { Job } from "@quarry/proto/types/ci/v1/Job";
import type { JobRequest__Output } from "@quarry/proto/types/ci/v1/JobRequest";
import type { CiDeps } from "../deps.ts";
import { applyStatusChanges, processPipelineById } from "../pipelines/process.ts";
import { fireEvent, type JobStatus } from "../processing/index.ts";
import { findBuild } from "./get-job.ts";
import { currentJobMessage } from "./actions.ts";

/**
 * POST /projects/:id/jobs/:job_id/cancel (GitLab's Ci::Build#cancel): a waiting job is
 * canceled at once; a running one is `canceling` until its runner, which learns it from the
 * answer to its next trace or update call and runs `after_script`, reports `canceled`. Like
 * GitLab's API, a job that cannot be canceled is answered as it is.
 */
export const cancelJob =
  (deps: CiDeps) =>
  async (req: JobRequest__Output): Promise<Job> => {
    const job = await findBuild(deps, Number(req.projectId), Number(req.jobId));
    const from = job.status as JobStatus;
    // Our runners cancel gracefully (GitLab's cancel_gracefully feature).
    const to = fireEvent(from, "cancel", { supportsCanceling: true });
    if (to) {
      await deps.prisma.$transaction((tx) => applyStatusChanges(tx, [{ id: job.id, from, to }]));
      await processPipelineById(deps, job.pipelineId);
    }
    return currentJobMessage(deps, job.id);
  };
