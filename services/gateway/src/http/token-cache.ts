import type { Principal } from "./principal.ts";

type CacheEntry = { principal: Principal; expires: number };

/**
 * Remembers recent token lookups for a short TTL so that most requests cost no round trip to
 * identity-service (and no database query). Revocations evict at once (locally, and on every
 * gateway through the token_revoke event); the TTL bounds everything else (blocked users …).
 */
export class TokenCache {
  private readonly entries = new Map<string, CacheEntry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(digest: string): Principal | undefined {
    const e = this.entries.get(digest);
    if (!e) return undefined;
    if (e.expires < Date.now()) {
      this.entries.delete(digest);
      return undefined;
    }
    return e.principal;
  }

  set(digest: string, principal: Principal): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(digest, { principal, expires: Date.now() + this.ttlMs });
  }

  evictToken(tokenId: number): void {
    for (const [k, e] of this.entries) if (e.principal.tokenId === tokenId) this.entries.delete(k);
  }

  evictUser(userId: number): void {
    for (const [k, e] of this.entries) if (e.principal.userId === userId) this.entries.delete(k);
  }
}
