import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import { TtlCache } from "./ttl-cache.ts";

/**
 * Recent identity GetUser answers by user id (GetUser reads no actor: every caller gets the same
 * user; routes choose the view), for a short TTL, so that a warm GET /user or GET /users/:id makes
 * no identity call. An unknown user (404) is never kept. Evicted at once by `quarry.access.changed`
 * events naming the user (identity-service publishes one with every write to a user's row that
 * GetUser shows), by any namespace change (enterprise claims name no users), and by this gateway's
 * own writes before they run (http/access-evictions.ts). An answer fetched while an eviction
 * happened is not kept.
 */
export class UserCache {
  private readonly cache: TtlCache<number, User>;

  constructor(ttlMs: number, maxEntries = 10_000) {
    this.cache = new TtlCache(ttlMs, maxEntries);
  }

  get generation(): number {
    return this.cache.generation;
  }

  get(id: number): User | undefined {
    return this.cache.get(id);
  }

  set(id: number, user: User, generation: number): void {
    this.cache.set(id, Object.freeze({ ...user, identities: Object.freeze([...user.identities]) }) as User, generation);
  }

  evict(ids: number[]): void {
    this.cache.evict(ids.map(Number));
  }

  clear(): void {
    this.cache.clear();
  }
}
