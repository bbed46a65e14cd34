import { unauthenticated } from "@quarry/grpc";
import type { JobTokenIdentity } from "@quarry/proto/types/ci/v1/JobTokenIdentity";
import type { JobTokenRequest__Output } from "@quarry/proto/types/ci/v1/JobTokenRequest";
import type { CiDeps } from "../deps.ts";
import { jobWithToken, TOKEN_LIVE_STATUSES } from "../pipelines/job-token.ts";

/** Resolves a CI_JOB_TOKEN; it is valid only while its job runs (GitLab: 401 otherwise). */
export const authenticateJobToken =
  (deps: CiDeps) =>
  async (req: JobTokenRequest__Output): Promise<JobTokenIdentity> => {
    const job = await jobWithToken(deps, req.token);
    if (!job || !TOKEN_LIVE_STATUSES.includes(job.status)) throw unauthenticated();
    return { jobId: job.id, projectId: job.projectId, userId: job.userId, pipelineId: job.pipelineId };
  };
