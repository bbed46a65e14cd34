import { describe, expect, it } from "vitest";
import { deepMerge, compileGlob, matchesAnyGlob } from "./util.ts";

describe("deepMerge", () => {
  it("merges nested hashes and replaces arrays and scalars", () => {
    expect(deepMerge({ a: { x: 1, y: [1, 2] }, b: 1 }, { a: { y: [3] }, c: 2 })).toEqual({ a: { x: 1, y: [3] }, b: 1, c: 2 });
  });

  it("keeps __proto__ as an ordinary key", () => {
    const merged = deepMerge({}, JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(Object.keys(merged)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("globs", () => {
  it.each([
    ["*.md", "README.md", true],
    ["*.md", "docs/a.md", false],
    ["docs/**/*.md", "docs/a.md", true],
    ["docs/**/*.md", "docs/x/y/a.md", true],
    ["**/*.ts", "a.ts", true],
    ["**/*.ts", "src/a/b.ts", true],
    ["src/**", "src/a/b", true],
    ["{a,b}.yml", "b.yml", true],
    ["{a,b}.yml", "c.yml", false],
    ["file?.txt", "file1.txt", true],
    ["[ab].txt", "a.txt", true],
    ["[!ab].txt", "a.txt", false],
    ["a.b", "axb", false],
  ])("%s matches %s: %s", (glob, path, expected) => {
    expect(compileGlob(glob).test(path)).toBe(expected);
  });

  it("matches nothing with a pattern that is not a valid class", () => {
    expect(compileGlob("[z-a].txt").test("b.txt")).toBe(false);
  });

  it("stays linear with many stars against a long path (globs come from users)", () => {
    expect(compileGlob("*a*a*a*a*a*a*a*a*a*a*a*a*b").test("a".repeat(3000))).toBe(false);
    expect(matchesAnyGlob(["**a**a**a**a**a**a**a**a**a**a**b"], ["a/".repeat(1500)])).toBe(false);
  });

  it("ignores a leading slash in the pattern", () => {
    expect(matchesAnyGlob(["/Dockerfile"], ["Dockerfile"])).toBe(true);
  });
});
