import type { Job } from "@quarry/proto/types/ci/v1/Job";
import type { JobRequest__Output } from "@quarry/proto/types/ci/v1/JobRequest";
import type { CiDeps } from "../deps.ts";
import { plainNotFound } from "../pipelines/artifacts.ts";
import { currentJobMessage } from "./actions.ts";
import { findBuild } from "./get-job.ts";

/**
 * POST /projects/:id/jobs/:job_id/artifacts/keep (GitLab's Ci::Build#keep_artifacts!): the job's
 * artifacts no longer expire. 404 unless the job has an archive that has not expired (GitLab's
 * Ci::Build#artifacts?).
 */
export const keepArtifacts =
  (deps: CiDeps) =>
  async (req: JobRequest__Output): Promise<Job> => {
    const job = await findBuild(deps, Number(req.projectId), Number(req.jobId));
    const now = new Date();
    const archive = job.artifacts.find((a) => a.fileType === "archive" && (a.expireAt === null || a.expireAt > now));
    if (!archive) throw plainNotFound();
    await deps.prisma.jobArtifact.updateMany({ where: { jobId: job.id }, data: { expireAt: null } });
    return currentJobMessage(deps, job.id);
  };
