import { AccessLevel } from "@quarry/gitlab";
import { status } from "@quarry/grpc";
import { describe, expect, it } from "vitest";
import { BranchProtection, matchesRule, type ProtectionRule } from "./protection.ts";

const rule = (name: string, push: number[], o: Partial<ProtectionRule> = {}): ProtectionRule => ({
  name,
  allowForcePush: false,
  levels: { push, merge: [AccessLevel.MAINTAINER], unprotect: [AccessLevel.MAINTAINER] },
  ...o,
});

describe("matchesRule", () => {
  it.each([
    ["main", "main", true],
    ["main", "main2", false],
    ["release/*", "release/1.0", true],
    ["release/*", "release/a/b", true], // '*' crosses '/'
    ["release/*", "release", false],
    ["*-stable", "1-0-stable", true],
    ["r.leases", "releases", false], // '.' is literal
    ["*", "anything", true],
  ])("%j matches %j: %s", (pattern, name, expected) => {
    expect(matchesRule(pattern, name)).toBe(expected);
  });

  it("stays linear with many stars against a long name", () => {
    expect(matchesRule("*a*a*a*a*a*a*a*a*a*a*a*a*b", "a".repeat(3000))).toBe(false);
  });
});

describe("BranchProtection", () => {
  const p = new BranchProtection([
    rule("main", [AccessLevel.MAINTAINER]),
    rule("release/*", [AccessLevel.DEVELOPER], { allowForcePush: true }),
    rule("frozen", [AccessLevel.NO_ACCESS]),
    rule("admins", [AccessLevel.ADMIN]),
  ]);

  it("lets Developers push to unprotected branches and nobody below", () => {
    expect(p.allows("push", "feature", 30)).toBe(true);
    expect(p.allows("push", "feature", 20)).toBe(false);
  });

  it("applies the matching rule's level; 0 is no one, 60 admins only", () => {
    expect(p.allows("push", "main", 30)).toBe(false);
    expect(p.allows("push", "main", 40)).toBe(true);
    expect(p.allows("push", "release/2", 30)).toBe(true);
    expect(p.allows("push", "frozen", 60)).toBe(false);
    expect(p.allows("push", "admins", 50)).toBe(false);
    expect(p.allows("push", "admins", 60)).toBe(true);
    expect(p.developersCan("push", "release/2")).toBe(true);
    expect(p.developersCan("push", "main")).toBe(false);
  });

  it("allows force pushes only where a rule says so", () => {
    expect(p.allowsForcePush("feature", 30)).toBe(true);
    expect(p.allowsForcePush("main", 40)).toBe(false);
    expect(p.allowsForcePush("release/2", 30)).toBe(true);
    expect(() => p.assertCanPush("main", 40, { force: true })).toThrow(/force push/);
  });

  it("refuses API writes with GitLab's 403 message", () => {
    expect(() => p.assertCanPush("main", 40)).not.toThrow();
    let err: unknown;
    try {
      p.assertCanPush("main", 30);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: status.PERMISSION_DENIED, body: { message: "403 Forbidden - You are not allowed to push into this branch" } });
  });
});
