// CI/CD job tokens (CI_JOB_TOKEN): accepted only while their job runs, only on the endpoints
// GitLab opens to them, acting as the job's user but limited to projects whose inbound
// allowlist admits the job's project.
import { status } from "@quarry/grpc";
import type { Request, RequestHandler, Router } from "express";
import type { GatewayDeps } from "../deps.ts";
import type { Principal } from "./principal.ts";
import { notFound } from "./errors.ts";

/** Read-only: a job token can fetch code and artifacts, never write through the API. */
export const JOB_TOKEN_SCOPES = ["read_api", "read_repository"];

/**
 * Declares, where a route is declared, that a CI job token authenticates it (GitLab's
 * `allow_access_with_scope`/job token routes we serve): `r.get(path, jobTokenAccess, scope("read"), …)`.
 * It does nothing when the route runs: authenticate() asks jobTokenRoutes() beforehand whether
 * the request's route carries it, and refuses a job token (401) on any route that does not.
 */
export const jobTokenAccess: RequestHandler & { acceptsJobToken: true } = Object.assign(((_req, _res, next) => next()) as RequestHandler, {
  acceptsJobToken: true as const,
});

/** What this module reads of express's router: a layer is a route or a mounted middleware/router. */
interface RouterLayer {
  slash?: boolean;
  match(path: string): unknown;
  route?: { path: string; stack: { method?: string; handle: { acceptsJobToken?: true } }[] };
  handle: { stack?: RouterLayer[] };
}

/** The GET routes under `stack` (and routers mounted at "/" in it) declared with jobTokenAccess. */
function markedRoutes(stack: readonly RouterLayer[]): RouterLayer[] {
  return stack.flatMap((layer) => {
    if (layer.route) return layer.route.stack.some((l) => l.method === "get" && l.handle.acceptsJobToken) ? [layer] : [];
    return layer.slash && layer.handle.stack ? markedRoutes(layer.handle.stack) : [];
  });
}

/**
 * Whether a request names a route declared with jobTokenAccess in `router` (matched as the
 * router will match it; only GET: job tokens read). The routes are collected once, here.
 */
export function jobTokenRoutes(router: Router): ((req: Request) => boolean) & { paths: string[] } {
  const routes = markedRoutes((router as unknown as { stack: RouterLayer[] }).stack);
  const accepts = (req: Request): boolean => {
    if (req.method !== "GET") return false;
    return routes.some((layer) => {
      try {
        return Boolean(layer.match(req.path));
      } catch {
        return false; // a malformed %-escape: no route takes it
      }
    });
  };
  return Object.assign(accepts, { paths: routes.map((l) => l.route!.path) });
}

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
  let identity: Awaited<ReturnType<GatewayDeps["ci"]["AuthenticateJobToken"]>>;
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
  const { groupIds } = await deps.identity.GetGroupAncestors({ actor, projectId }, { requestId: req.requestId });
  return groupIds.map(Number);
}

/**
 * Refuses a job token on a project other than its job's unless the target's inbound allowlist
 * admits the job's project (or one of its groups): such projects are 404, as if invisible.
 */
export async function assertJobTokenScope(deps: GatewayDeps, req: Request, targetProjectId: number): Promise<void> {
  const job = req.principal?.jobToken;
  if (!job || job.projectId === targetProjectId) return;
  const sourceGroupIds = await groupIdsOf(deps, req, job.projectId, req.principal!.userId);
  const { allowed } = await deps.ci.CheckJobTokenAccess({ targetProjectId, sourceProjectId: job.projectId, sourceGroupIds }, { requestId: req.requestId });
  if (!allowed) throw notFound("Project");
}
