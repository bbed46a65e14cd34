import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectedPushPayload,
  gitIn,
  makeCommit,
  newProject,
  outboxPayloads,
  pushContext,
  repositoryWith,
  setUp,
  type TestContext,
} from "../../test/support.ts";
import { deleteMergedBranches } from "./delete-merged-branches.ts";
import { NULL_SHA } from "../git/git.ts";

let t: TestContext;
let deleteMerged: ReturnType<typeof deleteMergedBranches>;

beforeAll(async () => {
  t = await setUp("repo_delete_merged");
  deleteMerged = deleteMergedBranches(t.deps);
});
afterAll(() => t?.close());

const branches = (dir: string) => gitIn(dir, "for-each-ref", "--format=%(refname:short)", "refs/heads/").split("\n").filter(Boolean);

describe("DeleteMergedBranches", () => {
  it("deletes the branches merged into the default branch, keeping the default, identical, unmerged and protected ones", async () => {
    const repo = await repositoryWith(t);
    const base = makeCommit(repo.dir, { message: "Base\n" });
    const mid = makeCommit(repo.dir, { message: "Mid\n", parents: [base] });
    const tip = makeCommit(repo.dir, { message: "Tip\n", parents: [mid] });
    const side = makeCommit(repo.dir, { message: "Side\n", parents: [base] });
    const heads: Record<string, string> = {
      main: tip,
      "old/a": base,
      "old/b": mid,
      "same-as-main": tip,
      unmerged: side,
      "release/1.0": base,
      stable: mid,
    };
    for (const [name, sha] of Object.entries(heads)) gitIn(repo.dir, "update-ref", `refs/heads/${name}`, sha);

    const result = await deleteMerged({
      diskPath: repo.diskPath,
      context: pushContext(repo.projectId),
      protectedPatterns: ["release/*", "stable"],
    });
    expect(result).toEqual({ deleted: ["old/a", "old/b"] });
    expect(branches(repo.dir)).toEqual(["main", "release/1.0", "same-as-main", "stable", "unmerged"]);

    const events = await outboxPayloads(t, repo.projectId);
    expect(events.map((e) => e.payload)).toEqual([
      expectedPushPayload("refs/heads/old/a", base, NULL_SHA, repo.projectId),
      expectedPushPayload("refs/heads/old/b", mid, NULL_SHA, repo.projectId),
    ]);

    // Nothing is left to delete the second time.
    expect(await deleteMerged({ diskPath: repo.diskPath, context: pushContext(repo.projectId), protectedPatterns: ["release/*", "stable"] })).toEqual({
      deleted: [],
    });
  });

  it("takes the default branch from the context, or HEAD's when the context has none", async () => {
    const repo = await repositoryWith(t);
    const base = makeCommit(repo.dir, { message: "Base\n" });
    const tip = makeCommit(repo.dir, { message: "Tip\n", parents: [base] });
    gitIn(repo.dir, "update-ref", "refs/heads/main", base);
    gitIn(repo.dir, "update-ref", "refs/heads/develop", tip);
    gitIn(repo.dir, "update-ref", "refs/heads/merged", base);

    // develop is the default: main and merged are behind it, but main is HEAD's branch and stays.
    expect(await deleteMerged({ diskPath: repo.diskPath, context: pushContext(repo.projectId, { defaultBranch: "develop" }), protectedPatterns: [] })).toEqual({
      deleted: ["merged"],
    });
    gitIn(repo.dir, "update-ref", "refs/heads/other", base);
    gitIn(repo.dir, "symbolic-ref", "HEAD", "refs/heads/develop");
    expect(await deleteMerged({ diskPath: repo.diskPath, context: pushContext(repo.projectId, { defaultBranch: "" }), protectedPatterns: [] })).toEqual({
      deleted: ["main", "other"],
    });
  });

  it("deletes nothing without a default branch, in an empty repository, and answers 404 for a missing one", async () => {
    const repo = await repositoryWith(t);
    expect(await deleteMerged({ diskPath: repo.diskPath, context: pushContext(repo.projectId), protectedPatterns: [] })).toEqual({ deleted: [] });
    const base = makeCommit(repo.dir, { message: "Base\n" });
    gitIn(repo.dir, "update-ref", "refs/heads/topic", base);
    expect(await deleteMerged({ diskPath: repo.diskPath, context: pushContext(repo.projectId), protectedPatterns: [] })).toEqual({ deleted: [] });
    expect(branches(repo.dir)).toEqual(["topic"]);
    await expect(deleteMerged({ diskPath: newProject().diskPath, context: pushContext(1), protectedPatterns: [] })).rejects.toMatchObject({
      body: { message: "404 Repository Not Found" },
    });
    await expect(deleteMerged({ diskPath: repo.diskPath, context: null, protectedPatterns: [] })).rejects.toMatchObject({
      body: { error: "context is missing" },
    });
  });
});
