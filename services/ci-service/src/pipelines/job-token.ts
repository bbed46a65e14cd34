// CI_JOB_TOKEN: GitLab's `glcbt-` format, stored as a SHA-256 digest (high entropy, so an
// indexed plain digest suffices), valid while its job runs.
import { randomBytes } from "node:crypto";
import { forbidden } from "@quarry/grpc";
import type { CiDeps } from "../deps.ts";
import { tokenDigest } from "../token-digest.ts";
import type { Job } from "../generated/prisma/client.ts";

export const newJobToken = (): string => `glcbt-${randomBytes(24).toString("base64url")}`;

/** Statuses in which the runner is still working on the job and its token is good. */
export const TOKEN_LIVE_STATUSES = ["running", "canceling"];

/** The job `token` was issued for, whatever its status; null for an unknown token. */
export function jobWithToken(deps: CiDeps, token: string): Promise<Job | null> {
  return token ? deps.prisma.job.findUnique({ where: { tokenDigest: tokenDigest(token) } }) : Promise.resolve(null);
}

/** The job `token` was issued for, if it is `jobId`; GitLab's bare 403 otherwise. */
export async function jobForRunnerToken(deps: CiDeps, jobId: number, token: string): Promise<Job> {
  const job = await jobWithToken(deps, token);
  if (!job || job.id !== jobId) throw forbidden();
  return job;
}
