import type { RequestHandler } from "express";
import type { AccessChangedEvent } from "@quarry/bus";
import type { AuthorizationCache } from "./authorization-cache.ts";
import type { TokenCache } from "./token-cache.ts";
import type { UserCache } from "./user-cache.ts";

type Caches = { authCache: AuthorizationCache; tokenCache: TokenCache; userCache: UserCache };

/**
 * Applies identity-service's `quarry.access.changed` event to this gateway's caches: answers about
 * the projects, for the users as callers (and about their personal namespaces' projects), the
 * users' cached tokens (their state or admin flag may have changed) and their GetUser answers. A
 * namespace (group) change evicts every authorization and user answer: the gateway does not know
 * which projects lie under a group (nor which users a domain verification claimed).
 */
export function applyAccessChange(caches: Caches, e: Omit<AccessChangedEvent, "event_id" | "event_name">): void {
  const users = (e.user_ids ?? []).map(Number);
  if (e.namespace_ids?.length) {
    caches.authCache.clear();
    caches.userCache.clear();
  } else {
    caches.authCache.evictProjects((e.project_ids ?? []).map(Number));
    caches.authCache.evictUsers(users);
    if (users.length) caches.userCache.evict(users);
  }
  for (const id of users) caches.tokenCache.evictUser(id);
}

const PROJECT_WRITE = /^\/projects\/([^/]+)(?:\/|$)/;
const USER_WRITE = /^\/users\/(\d+)(?:\/|$)/;

/**
 * This gateway's own writes evict what they may change BEFORE they run, so that nothing cached
 * earlier answers for them, and AGAIN as their response goes out: the write route itself
 * authorizes (re-caching the project as it was before the write), and the caller's very next
 * request must be answered afresh (the bus event of the change reaches every gateway a moment
 * later, and also covers a read that raced the write). A write under /projects/:id evicts that
 * project, under /users/:id that user, under /groups anything; any write evicts the caller's own
 * GetUser answer (e-mails, two-factor, … are changed by the user themselves).
 */
export function accessEvictions(caches: Caches): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const evict = writeEvictions(caches, req.path, req.principal?.userId);
    evict();
    const end = res.end;
    // Before the response leaves (res.end), not on "finish": the client may already be asking again.
    res.end = function (this: typeof res, ...args: Parameters<typeof res.end>) {
      evict();
      return end.apply(this, args);
    } as typeof res.end;
    next();
  };
}

/** What a write to `path` may have changed, evicted. */
function writeEvictions(caches: Caches, path: string, callerId: number | undefined): () => void {
  const project = PROJECT_WRITE.exec(path);
  let projectRef: string | undefined;
  if (project) {
    projectRef = project[1]!;
    try {
      projectRef = decodeURIComponent(projectRef);
    } catch {
      // A malformed escape names no project; the route answers it.
    }
  }
  const user = project ? undefined : USER_WRITE.exec(path);
  return () => {
    if (callerId !== undefined) caches.userCache.evict([callerId]);
    if (projectRef !== undefined) caches.authCache.evictProjectRef(projectRef);
    else if (path.startsWith("/groups/")) {
      caches.authCache.clear();
      caches.userCache.clear();
    } else if (user) applyAccessChange(caches, { user_ids: [Number(user[1])] });
  };
}
