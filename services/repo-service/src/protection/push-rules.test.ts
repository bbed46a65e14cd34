import { AccessLevel } from "@quarry/gitlab";
import { describe, expect, it } from "vitest";
import { BranchProtection, type ProtectionRule } from "./protection.ts";
import { checkPush, PushMessages, type PushFacts } from "./push-rules.ts";

const ZERO = "0".repeat(40);
const A = "a".repeat(40);
const B = "b".repeat(40);

const rule = (name: string, push: number, merge: number = AccessLevel.MAINTAINER, allowForcePush = false): ProtectionRule => ({
  name,
  allowForcePush,
  levels: { push: [push], merge: [merge], unprotect: [AccessLevel.MAINTAINER] },
});

const facts = (o: Partial<PushFacts> & { rules?: ProtectionRule[] } = {}): PushFacts => ({
  protection: new BranchProtection(o.rules ?? [rule("main", AccessLevel.MAINTAINER)]),
  accessLevel: AccessLevel.DEVELOPER,
  defaultBranch: "main",
  emptyRepository: false,
  pathWithNamespace: "ada/proj",
  webUrl: "http://quarry.example/ada/proj",
  ...o,
});

const update = (ref: string, oldSha = A, newSha = B) => ({ oldSha, newSha, ref });

describe("checkPush", () => {
  it("keeps deploy keys off protected branches, even those Developers may push to", () => {
    const devPush = facts({ rules: [rule("main", AccessLevel.DEVELOPER)], deployKey: true });
    expect(checkPush([update("refs/heads/main")], devPush).denied).toBe(PushMessages.pushProtectedBranch);
    expect(checkPush([update("refs/heads/topic")], devPush).denied).toBe("");
  });

  it("lets Developers push to unprotected branches and tags, and no one below Developer", () => {
    expect(checkPush([update("refs/heads/topic"), update("refs/tags/v1", ZERO)], facts())).toEqual({ denied: "", fastForwardOnly: [] });
    expect(checkPush([update("refs/heads/topic")], facts({ accessLevel: 20 })).denied).toBe(PushMessages.pushCode);
  });

  it("refuses pushes to protected branches without push access, and leaves force pushes to the hook", () => {
    expect(checkPush([update("refs/heads/main")], facts()).denied).toBe(PushMessages.pushProtectedBranch);
    expect(checkPush([update("refs/heads/main")], facts({ accessLevel: 40 }))).toEqual({ denied: "", fastForwardOnly: ["refs/heads/main"] });
    const wildcard = facts({ accessLevel: 40, rules: [rule("release/*", AccessLevel.DEVELOPER, 40, true)] });
    expect(checkPush([update("refs/heads/release/1")], wildcard)).toEqual({ denied: "", fastForwardOnly: [] });
  });

  it("refuses creating protected branches by git, with GitLab's two messages", () => {
    expect(checkPush([update("refs/heads/main", ZERO)], facts()).denied).toBe(PushMessages.createProtectedBranch);
    const canMerge = facts({ rules: [rule("main", AccessLevel.MAINTAINER, AccessLevel.DEVELOPER)] });
    expect(checkPush([update("refs/heads/main", ZERO)], canMerge).denied).toBe(PushMessages.nonWebCreateProtectedBranch);
    expect(checkPush([update("refs/heads/main", ZERO)], facts({ accessLevel: 40 })).denied).toBe("");
  });

  it("refuses deleting the default branch and protected branches", () => {
    const rules = [rule("main", 40), rule("stable", 40)];
    expect(checkPush([update("refs/heads/main", A, ZERO)], facts({ rules, accessLevel: 40 })).denied).toBe(PushMessages.deleteDefaultBranch);
    expect(checkPush([update("refs/heads/stable", A, ZERO)], facts({ rules })).denied).toBe(PushMessages.deleteProtectedBranch);
    expect(checkPush([update("refs/heads/stable", A, ZERO)], facts({ rules, accessLevel: 40 })).denied).toBe(PushMessages.nonWebDeleteProtectedBranch);
  });

  it("refuses 40-hex branch names and tags named like the default branch", () => {
    expect(checkPush([update(`refs/heads/${"c".repeat(40)}`, ZERO)], facts()).denied).toBe(PushMessages.hexBranchName);
    expect(checkPush([update("refs/tags/main", ZERO)], facts()).denied).toBe(PushMessages.defaultBranchTag);
  });

  it("explains how to get a default branch when a protected first push is refused", () => {
    const { denied } = checkPush([update("refs/heads/main", ZERO)], facts({ emptyRepository: true }));
    expect(denied).toBe(
      "\nA default branch (e.g. main) does not yet exist for ada/proj\nAsk a project Owner or Maintainer to create a default branch:\n\n  http://quarry.example/ada/proj/-/project_members\n",
    );
  });

  it("reports the first refusal of several", () => {
    const { denied } = checkPush([update("refs/heads/main"), update("refs/heads/main", A, ZERO)], facts());
    expect(denied).toBe(PushMessages.pushProtectedBranch);
  });
});
