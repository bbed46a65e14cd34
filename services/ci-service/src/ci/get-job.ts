import { isPositiveInt32 } from "@quarry/gitlab";
import type { Job } from "@quarry/proto/types/ci/v1/Job";
import type { JobRequest__Output } from "@quarry/proto/types/ci/v1/JobRequest";
import type { CiDeps } from "../deps.ts";
import type { JobWithRelations } from "../pipelines/messages.ts";
import { JOB_INCLUDE } from "../pipelines/messages.ts";
import { jobMessages, recordNotFound } from "./pipelines.ts";

/** The project's build (GitLab's `user_project.builds.find`), or 404: bridges are not jobs here. */
export async function findBuild(deps: CiDeps, projectId: number, jobId: number): Promise<JobWithRelations> {
  const job = isPositiveInt32(jobId) ? await deps.prisma.job.findFirst({ where: { id: jobId, projectId, type: "build" }, include: JOB_INCLUDE }) : null;
  if (!job) throw recordNotFound();
  return job;
}

/** One build of the project; NOT_FOUND "404 Not found" for anything else. */
export const getJob =
  (deps: CiDeps) =>
  async (req: JobRequest__Output): Promise<Job> => {
    const job = await findBuild(deps, Number(req.projectId), Number(req.jobId));
    const [message] = await jobMessages(deps.prisma, [job]);
    return message!;
  };
