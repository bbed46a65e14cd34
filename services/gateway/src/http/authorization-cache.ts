import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import { TtlCache } from "./ttl-cache.ts";

/** What identity-service's Authorize answers for a project the caller may act on. */
export interface ProjectAuthorization {
  project: Project;
  accessLevel: number;
}

type Entry = { answer: ProjectAuthorization; userId: number; ref: string };

/** The cache key: who asks (user id, 0 when anonymous; the admin flag), for what, about which `:id` as given. */
export function authorizationKey(userId: number, isAdmin: boolean, action: string, ref: string): string {
  return `${userId}:${isAdmin ? 1 : 0}:${action}:${ref}`;
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === "object" && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

/**
 * Recent Authorize successes for projects (the resolved project and the caller's level), for a
 * short TTL, so that a warm project request makes no identity call. Refusals (404/403) are not
 * kept: they always ask identity-service, so they stay exact. Anything that can turn a success
 * stale evicts at once: identity-service's `quarry.access.changed` events (every gateway), and
 * this gateway's own writes (http/access-evictions.ts) before they run.
 * An answer fetched while an eviction happened is not kept (TtlCache's generation).
 */
export class AuthorizationCache {
  private readonly cache: TtlCache<string, Entry>;

  constructor(ttlMs: number, maxEntries = 10_000) {
    this.cache = new TtlCache(ttlMs, maxEntries);
  }

  /** Take before asking identity-service; give back to set(). */
  get generation(): number {
    return this.cache.generation;
  }

  get size(): number {
    return this.cache.size;
  }

  get(key: string): ProjectAuthorization | undefined {
    return this.cache.get(key)?.answer;
  }

  /** Keeps `answer` unless something was evicted since `generation` was taken. */
  set(key: string, answer: ProjectAuthorization, generation: number, userId: number, ref: string): void {
    // Shared between requests: frozen, so that no route can change what the next one sees.
    this.cache.set(key, { answer: deepFreeze(answer), userId, ref: ref.toLowerCase() }, generation);
  }

  /** Answers about these projects. */
  evictProjects(ids: number[]): void {
    if (!ids.length) return;
    const set = new Set(ids.map(Number));
    this.cache.evictWhere((e) => set.has(Number(e.answer.project.id)));
  }

  /** Answers for these users as callers, and about projects in their personal namespaces. */
  evictUsers(ids: number[]): void {
    if (!ids.length) return;
    const set = new Set(ids.map(Number));
    this.cache.evictWhere((e) => {
      const ns = e.answer.project.namespace;
      return set.has(e.userId) || (ns?.kind === "user" && set.has(Number(ns.ownerId)));
    });
  }

  /** Answers about the project a route's `:id` names (an id or a full path, as given or as resolved). */
  evictProjectRef(ref: string): void {
    const lower = ref.toLowerCase();
    this.cache.evictWhere((e) => e.ref === lower || String(e.answer.project.id) === ref || e.answer.project.pathWithNamespace.toLowerCase() === lower);
  }

  /** Everything (a group changed: the gateway does not know which projects lie under it). */
  clear(): void {
    this.cache.clear();
  }
}
