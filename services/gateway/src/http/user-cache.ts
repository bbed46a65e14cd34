import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";

type Entry = { user: User; expires: number };

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
  private readonly entries = new Map<number, Entry>();
  private gen = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get generation(): number {
    return this.gen;
  }

  get(id: number): User | undefined {
    const e = this.entries.get(id);
    if (!e) return undefined;
    if (e.expires < Date.now()) {
      this.entries.delete(id);
      return undefined;
    }
    return e.user;
  }

  set(id: number, user: User, generation: number): void {
    if (this.ttlMs <= 0 || generation !== this.gen) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(id)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(id, { user: Object.freeze({ ...user, identities: Object.freeze([...user.identities]) }) as User, expires: Date.now() + this.ttlMs });
  }

  evict(ids: number[]): void {
    this.gen++;
    for (const id of ids) this.entries.delete(Number(id));
  }

  clear(): void {
    this.gen++;
    this.entries.clear();
  }
}
