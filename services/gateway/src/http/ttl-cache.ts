/**
 * A bounded map of answers kept for a short TTL (the oldest entry goes first when full), with a
 * generation that every eviction bumps: an answer fetched while an eviction happened is not kept
 * (it may predate the change), so a read racing a write cannot re-fill the cache with the old
 * answer. The gateway's authorization and user caches are built on it.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>();
  private gen = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** Take before asking for the answer; give back to set(). */
  get generation(): number {
    return this.gen;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires < Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** Keeps `value` unless something was evicted since `generation` was taken. */
  set(key: K, value: V, generation: number): void {
    if (this.ttlMs <= 0 || generation !== this.gen) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
  }

  evictWhere(match: (value: V, key: K) => boolean): void {
    this.gen++;
    for (const [k, e] of this.entries) if (match(e.value, k)) this.entries.delete(k);
  }

  evict(keys: K[]): void {
    this.gen++;
    for (const k of keys) this.entries.delete(k);
  }

  clear(): void {
    this.gen++;
    this.entries.clear();
  }
}
