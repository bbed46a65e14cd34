import type { DeleteArtifactsResponse } from "@quarry/proto/types/ci/v1/DeleteArtifactsResponse";
import type { JobRequest__Output } from "@quarry/proto/types/ci/v1/JobRequest";
import type { CiDeps } from "../deps.ts";
import { deleteArtifactRows } from "../pipelines/remove-artifacts.ts";
import { findBuild } from "./get-job.ts";
import { publishArtifactsStatistics } from "../events/artifacts-statistics.ts";

/**
 * DELETE /projects/:id/jobs/:job_id/artifacts (GitLab's Ci::JobArtifacts::DeleteService): the
 * job's erasable artifacts (all but the trace) are deleted now, rows and objects. Like GitLab,
 * a job without any answers the same.
 */
export const deleteJobArtifacts =
  (deps: CiDeps) =>
  async (req: JobRequest__Output): Promise<DeleteArtifactsResponse> => {
    const job = await findBuild(deps, Number(req.projectId), Number(req.jobId));
    const keys = await deps.prisma.$transaction((tx) => deleteArtifactRows(tx, job.id, "erasable"));
    await deps.objectStore.deleteMany(keys);
    await publishArtifactsStatistics(deps, [job.projectId]);
    return {};
  };
