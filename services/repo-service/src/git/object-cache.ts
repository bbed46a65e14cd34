// Answers that depend only on object ids, cached by them: a commit's parsed data and stats, a diff
// between two commits, a blame of a path at a commit. Objects never change, so these entries are
// never invalidated, only dropped (least recently used first) when a cache exceeds its byte budget.
// Keys are object ids (content-addressed, so the same in every repository holding the objects).
import type { BlameRange__Output as BlameRange } from "@quarry/proto/types/repo/v1/BlameRange";
import type { Commit__Output as Commit } from "@quarry/proto/types/repo/v1/Commit";
import type { CommitStats__Output as CommitStats } from "@quarry/proto/types/repo/v1/CommitStats";
import type { CompareRefsResponse__Output as CompareRefsResponse } from "@quarry/proto/types/repo/v1/CompareRefsResponse";

/** A least-recently-used map bounded by the approximate bytes of its values. */
export class ByteLru<V> {
  private readonly map = new Map<string, { value: V; bytes: number }>();
  private total = 0;

  constructor(
    /** Most bytes kept; a value larger than this is not kept at all. */
    readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number = approxBytes,
  ) {}

  get(key: string): V | undefined {
    const entry = this.map.get(key);
    if (!entry) return undefined;
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    const bytes = this.sizeOf(value) + key.length * 2;
    if (bytes > this.maxBytes) return;
    this.map.set(key, { value, bytes });
    this.total += bytes;
    for (const [oldest, entry] of this.map) {
      if (this.total <= this.maxBytes) break;
      this.map.delete(oldest);
      this.total -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.map.get(key);
    if (!entry) return;
    this.map.delete(key);
    this.total -= entry.bytes;
  }

  /** Approximate bytes held. */
  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.map.size;
  }
}

/**
 * A rough size of a value in memory: strings at two bytes a character, buffers their length,
 * numbers and booleans eight bytes, plus a small overhead per object, array and property.
 */
export function approxBytes(value: unknown): number {
  if (typeof value === "string") return 16 + value.length * 2;
  if (typeof value !== "object" || value === null) return 8;
  if (Buffer.isBuffer(value)) return 32 + value.length;
  if (value instanceof Map) {
    let n = 64;
    for (const [k, v] of value) n += 16 + approxBytes(k) + approxBytes(v);
    return n;
  }
  if (Array.isArray(value)) {
    let n = 32;
    for (const v of value) n += 8 + approxBytes(v);
    return n;
  }
  let n = 32;
  for (const [k, v] of Object.entries(value)) n += 8 + k.length + approxBytes(v);
  return n;
}

const MiB = 1024 * 1024;

/** The service's caches of immutable answers (module-wide: object ids mean the same everywhere). */
export const objectCaches = {
  /** Commit id → the commit as the API shows it (quarry.repo.v1.Commit). */
  commits: new ByteLru<Commit>(32 * MiB),
  /** Commit id → its stats against the first parent. */
  commitStats: new ByteLru<CommitStats>(4 * MiB),
  /** "<from>\0<to>\0<straight>" → a compare's commits and diffs (never a timed-out one). */
  compares: new ByteLru<CompareRefsResponse>(64 * MiB),
  /** "<commit>\0<path>\0<range>" → a blame's ranges. */
  blames: new ByteLru<BlameRange[]>(64 * MiB),
};
