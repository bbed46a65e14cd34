// CI/CD job tokens (CI_JOB_TOKEN): accepted only while their job runs, only on the endpoints
// GitLab opens to them, acting as the job's user but limited to projects whose inbound
// allowlist admits the job's project.
import { status } from "@quarry/grpc";
import type { Request } from "express";
import type { GatewayDeps } from "../deps.ts";
import type { Principal } from "./principal.ts";
import { notFound } from "./errors.ts";

/** Read-only: a job token can fetch code and artifacts, never write through the API. */
export const JOB_TOKEN_SCOPES = ["read_api", "read_repository"];

/** API routes that take a job token (GitLab's `allow_access_with_scope`/job token routes we serve). */
const JOB_TOKEN_ROUTES = [
  /^\/projects\/[^/]+\/jobs\/\d+\/artifacts(\/.*)?$/,
  /^\/projects\/[^/]+\/jobs\/artifacts\/[^/]+\/(download|raw\/.*)$/,
  /^\/jobs\/\d+\/artifacts$/,
  /^\/job$/,
];

export const acceptsJobToken = (req: Request): boolean => req.method === "GET" && JOB_TOKEN_ROUTES.some((r) => r.test(req.path));

/** The runner's own calls on a job (trace, state, uploads) check the job token themselves. */
export const isRunnerJobCall = (req: Request): boolean => req.method !== "GET" && /^\/jobs\/\d+(\/trace|\/artifacts)?$/.test(req.path);

/** The job token from the JOB-TOKEN header or the job_token parameter. */
export function jobTokenFrom(req: Request): string | undefined {
  const header = req.get("job-token");
  if (header) return header;
  const q = req.query.job_token;
  return typeof q === "string" && q ? q : undefined;
}

/** The principal a running job's token stands for; undefined when the job is not running. */
export async function principalForJobToken(deps: GatewayDeps, token: string, requestId: string): Promise<Principal | undefined> {
  let identity;
  try {
    identity = await deps.ci.AuthenticateJobToken({ token }, { requestId });
  } catch (err) {
    if ((err as { code?: number }).code === status.UNAUTHENTICATED) return undefined;
    throw err;
  }
  const userId = Number(identity.userId);
  const user = await deps.identity.GetUser({ actor: { userId, isAdmin: false }, id: userId }, { requestId });
  return {
    userId,
    username: user.username,
    name: user.name,
    email: user.email,
    isAdmin: false,
    tokenId: 0,
    scopes: JOB_TOKEN_SCOPES,
    jobToken: { jobId: Number(identity.jobId), projectId: Number(identity.projectId) },
  };
}

/** Group ids a project sits in, innermost first (its namespace when a group, then the ancestors). */
async function groupIdsOf(deps: GatewayDeps, req: Request, projectId: number, userId: number): Promise<number[]> {
  const actor = { userId, isAdmin: false };
  const project = await deps.identity.GetProject({ actor, idOrPath: String(projectId) }, { requestId: req.requestId });
  const ids: number[] = [];
  if (project.namespace?.kind !== "group") return ids;
  let groupId = Number(project.namespace.id);
  while (groupId && ids.length < 20) {
    ids.push(groupId);
    const group = await deps.identity.GetGroup({ actor, idOrPath: String(groupId) }, { requestId: req.requestId });
    groupId = Number(group.parentId ?? 0);
  }
  return ids;
}

/**
 * Refuses a job token on a project other than its job's unless the target's inbound allowlist
 * admits the job's project (or one of its groups): such projects are 404, as if invisible.
 */
export async function assertJobTokenScope(deps: GatewayDeps, req: Request, targetProjectId: number): Promise<void> {
  const job = req.principal?.jobToken;
  if (!job || job.projectId === targetProjectId) return;
  const sourceGroupIds = await groupIdsOf(deps, req, job.projectId, req.principal!.userId);
  const { allowed } = await deps.ci.CheckJobTokenAccess(
    { targetProjectId, sourceProjectId: job.projectId, sourceGroupIds },
    { requestId: req.requestId },
  );
  if (!allowed) throw notFound("Project");
}
