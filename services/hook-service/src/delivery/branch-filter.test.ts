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

  it("regex: RE2 syntax and linear time, as GitLab's UntrustedRegexp", () => {
    expect(branchFilterPasses("regex", "(?i)^MAIN$", "refs/heads/main")).toBe(true); // RE2 inline flags
    // Backtracking would take 2^5000 steps to give up; RE2 answers at once.
    expect(branchFilterPasses("regex", "^(a+)+$", `refs/heads/${"a".repeat(5000)}b`)).toBe(false);
    expect(branchFilterPasses("regex", "(?P<kind>fix|feat)/", "refs/heads/fix/1")).toBe(true);
    // A filter RE2 refuses (stored before validation) matches nothing.
    expect(branchFilterPasses("regex", "^(m)\\1", "refs/heads/mm")).toBe(false);
  });

  it("wildcard: stays linear with many stars", () => {
    expect(wildcardMatches("*a*a*a*a*a*a*a*a*a*a*a*a*b", "a".repeat(3000))).toBe(false);
    expect(wildcardMatches("f(x)*[1]", "f(x)-[1]")).toBe(true);
  });
});
