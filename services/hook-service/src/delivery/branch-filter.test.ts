import { describe, expect, it } from "vitest";
import { branchFilterPasses, wildcardMatches } from "./branch-filter.ts";

describe("branch filters", () => {
  it("wildcard: * spans any characters, slashes included; no * means the exact name", () => {
    expect(wildcardMatches("release/*", "release/1.0")).toBe(true);
    expect(wildcardMatches("release/*", "release/a/b")).toBe(true);
    expect(wildcardMatches("release/*", "main")).toBe(false);
    expect(wildcardMatches("*-stable", "13-stable")).toBe(true);
    expect(wildcardMatches("main", "main")).toBe(true);
    expect(wildcardMatches("main", "main2")).toBe(false);
    expect(wildcardMatches("a.b*", "axb")).toBe(false); // other characters are literal
  });

  it("applies to the branch name without refs/heads/, by strategy", () => {
    expect(branchFilterPasses("wildcard", "feature/*", "refs/heads/feature/x")).toBe(true);
    expect(branchFilterPasses("wildcard", "feature/*", "refs/heads/main")).toBe(false);
    expect(branchFilterPasses("wildcard", null, "refs/heads/main")).toBe(true);
    expect(branchFilterPasses("regex", "^(main|dev)$", "refs/heads/dev")).toBe(true);
    expect(branchFilterPasses("regex", "^(main|dev)$", "refs/heads/devel")).toBe(false);
    expect(branchFilterPasses("regex", "fix", "refs/heads/bugfix-1")).toBe(true); // unanchored
    expect(branchFilterPasses("all_branches", "main", "refs/heads/other")).toBe(true);
  });
});
