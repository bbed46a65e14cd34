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
 * This gateway's own writes evict what they may change BEFORE they run, so that the caller's very
 * next request is answered afresh (the bus event of the change reaches every gateway a moment
 * later, and also covers a read that raced the write): a write under /projects/:id evicts that
 * project, under /users/:id that user, under /groups anything; any write evicts the caller's own
 * GetUser answer (e-mails, two-factor, … are changed by the user themselves).
 */
export function accessEvictions(caches: Caches): RequestHandler {
  return (req, _res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    if (req.principal) caches.userCache.evict([req.principal.userId]);
    const path = req.path;
    const project = PROJECT_WRITE.exec(path);
    if (project) {
      let ref = project[1]!;
      try {
        ref = decodeURIComponent(ref);
      } catch {
        // A malformed escape names no project; the route answers it.
      }
      caches.authCache.evictProjectRef(ref);
    } else if (path.startsWith("/groups/")) {
      caches.authCache.clear();
      caches.userCache.clear();
    } else {
      const user = USER_WRITE.exec(path);
      if (user) applyAccessChange(caches, { user_ids: [Number(user[1])] });
    }
    next();
  };
}
