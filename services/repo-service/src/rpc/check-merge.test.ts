import { status } from "@quarry/grpc";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { gitIn, makeTreeCommit, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { checkMerge } from "./check-merge.ts";

let t: TestContext;
let repo: { diskPath: string; dir: string; projectId: number };
let base: string;
let main: string;

beforeAll(async () => {
  t = await setUp("repo_check_merge");
});
afterAll(() => t?.close());

beforeEach(async () => {
  repo = await repositoryWith(t);
  base = makeTreeCommit(repo.dir, { "a.txt": "1\n2\n3\n", "b.txt": "b\n" }, { message: "Base\n" });
  main = makeTreeCommit(repo.dir, { "a.txt": "1\n2\n3\n", "b.txt": "bee\n" }, { message: "Main\n", parents: [base] });
  gitIn(repo.dir, "update-ref", "refs/heads/main", main);
});

const check = (sourceSha: string, targetBranch = "main") => checkMerge(t.deps)({ diskPath: repo.diskPath, targetBranch, sourceSha });

describe("CheckMerge", () => {
  it("reports a clean diverged merge with its base and counts, and writes no ref", async () => {
    const one = makeTreeCommit(repo.dir, { "a.txt": "one\n2\n3\n", "b.txt": "b\n" }, { message: "One\n", parents: [base] });
    const two = makeTreeCommit(repo.dir, { "a.txt": "one\n2\n3\n", "b.txt": "b\n", "c.txt": "c\n" }, { message: "Two\n", parents: [one] });
    const refsBefore = gitIn(repo.dir, "for-each-ref");
    expect(await check(two)).toEqual({
      targetSha: main,
      sourceSha: two,
      mergeBase: base,
      alreadyMerged: false,
      canFastForward: false,
      behindCount: 1,
      aheadCount: 2,
      hasConflicts: false,
      conflictingPaths: [],
    });
    expect(gitIn(repo.dir, "for-each-ref")).toBe(refsBefore);
  });

  it("lists the conflicting paths", async () => {
    const clash = makeTreeCommit(repo.dir, { "a.txt": "1\n2\n3\n", "b.txt": "bumble\n", "z.txt": "z\n" }, { message: "Clash\n", parents: [base] });
    expect(await check(clash)).toMatchObject({ hasConflicts: true, conflictingPaths: ["b.txt"], mergeBase: base, behindCount: 1, aheadCount: 1 });
  });

  it("sees a fast-forward and an already merged source (branch names resolve too)", async () => {
    const ahead = makeTreeCommit(repo.dir, { "a.txt": "x\n" }, { message: "Ahead\n", parents: [main] });
    gitIn(repo.dir, "update-ref", "refs/heads/feature", ahead);
    expect(await check("feature")).toMatchObject({
      sourceSha: ahead,
      canFastForward: true,
      alreadyMerged: false,
      behindCount: 0,
      aheadCount: 1,
      mergeBase: main,
    });
    expect(await check(base)).toMatchObject({ alreadyMerged: true, canFastForward: false, behindCount: 1, aheadCount: 0, hasConflicts: false });
  });

  it("reports unrelated histories as not mergeable", async () => {
    const orphan = makeTreeCommit(repo.dir, { "o.txt": "o\n" }, { message: "Orphan\n" });
    expect(await check(orphan)).toMatchObject({ mergeBase: "", hasConflicts: true, conflictingPaths: [] });
  });

  it("answers 404 for an unknown branch, commit or repository, 400 for missing names", async () => {
    await expect(check(main, "nope")).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Branch Not Found" } });
    await expect(check("f".repeat(40))).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Commit Not Found" } });
    await expect(check("")).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, body: { error: "source_sha is missing" } });
    await expect(checkMerge(t.deps)({ diskPath: "@hashed/no/ne/none.git", targetBranch: "main", sourceSha: main })).rejects.toMatchObject({
      code: status.NOT_FOUND,
      body: { message: "404 Repository Not Found" },
    });
  });
});
