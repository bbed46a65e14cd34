import { describe, expect, it } from "vitest";
import { approxBytes, ByteLru } from "./object-cache.ts";

describe("ByteLru", () => {
  const sized = (max: number) => new ByteLru<string>(max, (v) => v.length);

  it("answers what was set, and misses what was not", () => {
    const lru = sized(1000);
    lru.set("a", "x".repeat(10));
    expect(lru.get("a")).toBe("x".repeat(10));
    expect(lru.get("b")).toBeUndefined();
  });

  it("stays within its byte budget, dropping the least recently used first", () => {
    // Each entry: 100 bytes of value + 2 bytes of key.
    const lru = sized(350);
    lru.set("a", "a".repeat(100));
    lru.set("b", "b".repeat(100));
    lru.set("c", "c".repeat(100));
    expect(lru.bytes).toBe(306);
    lru.get("a"); // a is now the most recently used
    lru.set("d", "d".repeat(100));
    expect(lru.bytes).toBeLessThanOrEqual(350);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBeDefined();
    expect(lru.get("c")).toBeDefined();
    expect(lru.get("d")).toBeDefined();
    expect(lru.size).toBe(3);
  });

  it("keeps no value larger than the budget, and replacing a key counts its new size only", () => {
    const lru = sized(100);
    lru.set("big", "x".repeat(200));
    expect(lru.get("big")).toBeUndefined();
    expect(lru.bytes).toBe(0);
    lru.set("k", "x".repeat(50));
    lru.set("k", "y".repeat(20));
    expect(lru.bytes).toBe(22);
    lru.delete("k");
    expect(lru.bytes).toBe(0);
    expect(lru.size).toBe(0);
  });
});

describe("approxBytes", () => {
  it("grows with the strings, arrays and objects inside a value", () => {
    const small = approxBytes({ id: "a", lines: ["x"] });
    const large = approxBytes({ id: "a", lines: ["x".repeat(1000), "y"] });
    expect(large - small).toBeGreaterThanOrEqual(2000);
    expect(approxBytes(Buffer.alloc(500))).toBeGreaterThanOrEqual(500);
    expect(approxBytes(new Map([["k", "v".repeat(100)]]))).toBeGreaterThanOrEqual(200);
  });
});
