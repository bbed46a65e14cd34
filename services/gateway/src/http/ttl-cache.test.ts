import { afterEach, describe, expect, it, vi } from "vitest";
import { TtlCache } from "./ttl-cache.ts";

afterEach(() => vi.useRealTimers());

describe("TtlCache", () => {
  it("keeps answers for the TTL, then forgets them", () => {
    vi.useFakeTimers();
    const c = new TtlCache<string, number>(1000);
    c.set("a", 1, c.generation);
    expect(c.get("a")).toBe(1);
    vi.advanceTimersByTime(1001);
    expect(c.get("a")).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it("drops the oldest entry when full, and keeps nothing with a TTL of 0", () => {
    const c = new TtlCache<string, number>(60_000, 2);
    for (const [k, v] of [
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ] as const)
      c.set(k, v, c.generation);
    expect([c.get("a"), c.get("b"), c.get("c")]).toEqual([undefined, 2, 3]);
    const off = new TtlCache<string, number>(0);
    off.set("a", 1, off.generation);
    expect(off.get("a")).toBeUndefined();
  });

  it("does not keep an answer fetched while an eviction happened", () => {
    const c = new TtlCache<string, number>(60_000);
    const before = c.generation;
    c.evict(["x"]);
    c.set("a", 1, before);
    expect(c.get("a")).toBeUndefined();
    c.set("a", 1, c.generation);
    c.evictWhere((v) => v === 1);
    expect(c.get("a")).toBeUndefined();
    c.set("b", 2, c.generation);
    c.clear();
    expect(c.size).toBe(0);
  });
});
