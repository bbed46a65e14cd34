import { createHash } from "node:crypto";
import { MAX_INT32 } from "@quarry/gitlab";
import { status } from "@quarry/grpc";
import type { AuthenticateResponse__Output } from "@quarry/proto/types/identity/v1/AuthenticateResponse";
import type { NextFunction, Request, RequestHandler, Response, Router } from "express";
import type { GatewayDeps } from "../deps.ts";
import { ApiError, forbidden, insufficientScope, notFound, unauthorized } from "./errors.ts";
import { isRunnerJobCall, jobTokenFrom, jobTokenRoutes, principalForJobToken } from "./job-token.ts";
import type { Principal } from "./principal.ts";

export { TokenCache } from "./token-cache.ts";

/** Token from PRIVATE-TOKEN, `Authorization: Bearer`, or the private_token/access_token parameters. */
function tokenFrom(req: Request): string | undefined {
  const header = req.get("private-token");
  if (header) return header;
  const auth = req.get("authorization");
  if (auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth);
    if (m) return m[1]!.trim();
  }
  const q = req.query.private_token ?? req.query.access_token;
  if (typeof q === "string" && q) return q;
  const b = (req.body as Record<string, unknown> | undefined)?.private_token;
  return typeof b === "string" && b ? b : undefined;
}

function toPrincipal(r: AuthenticateResponse__Output): Principal {
  return {
    userId: Number(r.user?.id),
    username: r.user?.username ?? "",
    name: r.user?.name ?? "",
    email: r.user?.email ?? "",
    isAdmin: Boolean(r.user?.isAdmin),
    tokenId: Number(r.tokenId),
    scopes: r.scopes,
  };
}

/**
 * GitLab's Gitlab::Auth::UserAccessDeniedReason for a token whose owner may not use the API
 * (answered as `forbidden!`: 403 `403 Forbidden - <reason>`).
 */
function accessDeniedReason(state: string, externalUrl: string): string {
  if (state === "blocked_pending_approval") return "Your account is pending approval from your administrator and hence blocked.";
  if (state === "deactivated") {
    return `Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at ${externalUrl}`;
  }
  return "Your account has been blocked.";
}

/**
 * What a token stands for: its principal when the owner is active, the owner's state otherwise,
 * undefined for an unknown, revoked or expired token. Only active principals are cached (a state
 * change evicts them: locally, and on every gateway through token_revoke events).
 */
async function resolveToken(deps: GatewayDeps, token: string, requestId: string, ipAddress = ""): Promise<{ principal: Principal; state: string } | undefined> {
  const digest = createHash("sha256").update(token).digest("hex");
  const cached = deps.tokenCache.get(digest);
  if (cached) return { principal: cached, state: "active" };
  let res: AuthenticateResponse__Output;
  try {
    res = await deps.identity.Authenticate({ token, ipAddress }, { requestId });
  } catch (err) {
    if ((err as { code?: number }).code === status.UNAUTHENTICATED) return undefined;
    throw err;
  }
  const principal = toPrincipal(res);
  // Authenticate may have just written the user's last_activity_on (once a day): GET /user must show it.
  deps.userCache.evict([principal.userId]);
  const state = res.user?.state ?? "active";
  if (state === "active") deps.tokenCache.set(digest, principal);
  return { principal, state };
}

/**
 * The principal a token stands for, through the cache or identity-service; undefined for an
 * unknown, revoked or expired token, or an owner who is not active (blocked, banned, deactivated):
 * git over HTTP answers those 401 as GitLab's find_for_git_client does.
 */
export async function principalForToken(deps: GatewayDeps, token: string, requestId: string, ipAddress = ""): Promise<Principal | undefined> {
  const r = await resolveToken(deps, token, requestId, ipAddress);
  return r && r.state === "active" ? r.principal : undefined;
}

/** The API's form: a blocked, banned or deactivated owner is 403 with GitLab's reason (APIGuard#find_current_user!). */
async function apiPrincipalForToken(deps: GatewayDeps, token: string, requestId: string, ipAddress = ""): Promise<Principal | undefined> {
  const r = await resolveToken(deps, token, requestId, ipAddress);
  if (!r) return undefined;
  if (r.state !== "active") throw new ApiError(403, { message: `403 Forbidden - ${accessDeniedReason(r.state, deps.config.externalUrl)}` });
  return r.principal;
}

/** GitLab's sudo identifier: the `sudo` parameter, else the `Sudo` header (a user id or username). */
function sudoIdentifier(req: Request): string | undefined {
  const q = req.query.sudo;
  if (typeof q === "string" && q) return q;
  const b = (req.body as Record<string, unknown> | undefined)?.sudo;
  if ((typeof b === "string" && b) || typeof b === "number") return String(b);
  return req.get("sudo") || undefined;
}

/**
 * The user an administrator's request acts as through Sudo, with GitLab's checks in its order:
 * an administrator, authenticated by a personal access token, whose token has the sudo scope.
 * The token's id and scopes stay the administrator's; route scope checks are skipped under sudo,
 * as in GitLab (the sudo scope already grants everything).
 */
async function sudoPrincipal(deps: GatewayDeps, caller: Principal | undefined, identifier: string, requestId: string): Promise<Principal> {
  if (!caller) throw unauthorized();
  if (!caller.isAdmin) throw new ApiError(403, { message: "403 Forbidden - Must be admin to use sudo" });
  if (caller.jobToken) throw new ApiError(403, { message: "403 Forbidden - Must be authenticated using an OAuth or personal access token to use sudo" });
  if (!caller.scopes.includes("sudo")) throw insufficientScope("sudo");
  const actor = { userId: caller.userId, isAdmin: true };
  let user: Awaited<ReturnType<GatewayDeps["identity"]["GetUser"]>> | undefined;
  if (/^\d+$/.test(identifier)) {
    // Ids are int32 in GitLab: a longer number names no user (and must not overflow the call).
    if (Number(identifier) > MAX_INT32) throw notFound(`User with ID or username '${identifier}'`);
    try {
      user = await deps.identity.GetUser({ actor, id: identifier }, { requestId });
    } catch (err) {
      if ((err as { code?: number }).code !== status.NOT_FOUND) throw err;
    }
  } else {
    user = (await deps.identity.ListUsers({ actor, username: identifier, page: { page: 1, perPage: 1 } }, { requestId })).users[0];
  }
  if (!user) throw notFound(`User with ID or username '${identifier}'`);
  if (Number(user.id) === caller.userId) return caller;
  return { ...toPrincipal({ user, tokenId: caller.tokenId, scopes: caller.scopes, expiresAt: "" }), sudoBy: caller.userId };
}

/**
 * Resolves credentials when present. Bad credentials are 401 even on public endpoints, as in
 * GitLab; no credentials leaves the request anonymous for the route to judge. A job token is
 * taken only on the routes of `router` declared with jobTokenAccess.
 */
export function authenticate(deps: GatewayDeps, router: Router): RequestHandler {
  const acceptsJobToken = jobTokenRoutes(router);
  return async (req: Request, _res: Response, next: NextFunction) => {
    const jobToken = jobTokenFrom(req);
    if (jobToken && isRunnerJobCall(req)) return next();
    if (jobToken) {
      // Job tokens only work where GitLab accepts them; elsewhere they are bad credentials.
      if (!acceptsJobToken(req)) return next(unauthorized());
      try {
        const principal = await principalForJobToken(deps, jobToken, req.requestId);
        if (!principal) return next(unauthorized());
        const sudo = sudoIdentifier(req);
        req.principal = sudo ? await sudoPrincipal(deps, principal, sudo, req.requestId) : principal;
      } catch (err) {
        return next(err);
      }
      return next();
    }
    const token = tokenFrom(req);
    const sudo = sudoIdentifier(req);
    if (!token && !sudo) return next();
    try {
      const principal = token ? await apiPrincipalForToken(deps, token, req.requestId, req.ip ?? "") : undefined;
      if (token && !principal) return next(unauthorized());
      req.principal = sudo ? await sudoPrincipal(deps, principal, sudo, req.requestId) : principal;
    } catch (err) {
      return next(err);
    }
    next();
  };
}

/** HTTP Basic credentials (`Authorization: Basic base64(user:password)`), or undefined. */
export function basicCredentials(req: Request): { username: string; password: string } | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.get("authorization") ?? "");
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The actor message the services expect, with the client's address (req.ip: the "trust proxy" setting of app.ts applies). */
export function actor(req: Request) {
  return { userId: req.principal?.userId ?? 0, isAdmin: req.principal?.isAdmin ?? false, ipAddress: req.ip ?? "" };
}

export function requireUser(req: Request): Principal {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

export function requireAdmin(req: Request): Principal {
  const p = requireUser(req);
  if (!p.isAdmin) throw forbidden();
  return p;
}

/**
 * What a token's scopes allow: reads need api or read_api (or a narrower read scope the route
 * names); writes need api. Anonymous requests pass; routes decide whether they need a user.
 */
export type ScopeNeed = "read" | "write" | "read_user" | "read_repository";

export function checkScope(req: Request, need: ScopeNeed): void {
  const p = req.principal;
  if (!p || p.sudoBy !== undefined) return;
  const has = (s: string) => p.scopes.includes(s);
  if (need === "write") {
    if (!has("api")) throw insufficientScope("api");
    return;
  }
  if (has("api") || has("read_api")) return;
  if (need === "read_user" && has("read_user")) return;
  // Repository reads (files, tree, blobs, archive, compare, branches, tags, commits …).
  if (need === "read_repository" && has("read_repository")) return;
  throw insufficientScope(need === "read" ? "api read_api" : `api read_api ${need}`);
}

/** Route-level middleware form of checkScope; GET/HEAD are reads, the rest writes unless told. */
export function scope(need?: ScopeNeed): RequestHandler & { scopeNeed: ScopeNeed | "by method" } {
  const middleware: RequestHandler = (req, _res, next) => {
    try {
      checkScope(req, need ?? (req.method === "GET" || req.method === "HEAD" ? "read" : "write"));
      next();
    } catch (err) {
      next(err as ApiError);
    }
  };
  // Marked so that a test can find every route that declares no scope (routes/v4/scopes.test.ts).
  return Object.assign(middleware, { scopeNeed: need ?? ("by method" as const) });
}
