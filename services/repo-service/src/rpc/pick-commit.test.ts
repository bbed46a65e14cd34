import { status } from "@quarry/grpc";
import type { PickCommitRequest__Output } from "@quarry/proto/types/repo/v1/PickCommitRequest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { gitIn, makeTreeCommit, outboxPayloads, pushContext, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { cherryPickCommit, revertCommit } from "./pick-commit.ts";
import { protectBranch } from "./protect-branch.ts";

let t: TestContext;
let repo: { diskPath: string; dir: string; projectId: number };
let base: string;
let feature: string;
let main: string;

const grace = { name: "Grace Hopper", email: "grace@example.com", date: "2026-10-01T08:30:00+02:00" };

beforeAll(async () => {
  t = await setUp("repo_pick_commit");
});
afterAll(() => t?.close());

beforeEach(async () => {
  repo = await repositoryWith(t);
  base = makeTreeCommit(repo.dir, { "a.txt": "1\n2\n3\n", "b.txt": "b\n" }, { message: "Base\n" });
  feature = makeTreeCommit(
    repo.dir,
    { "a.txt": "one\n2\n3\n", "b.txt": "b\n", "dir/c.txt": "c\n" },
    { message: "Feature work\n\nWith a body.\n", parents: [base], author: grace },
  );
  main = makeTreeCommit(repo.dir, { "a.txt": "1\n2\n3\n", "b.txt": "bee\n" }, { message: "Main work\n", parents: [base] });
  gitIn(repo.dir, "update-ref", "refs/heads/main", main);
  gitIn(repo.dir, "update-ref", "refs/heads/feature", feature);
});

const request = (sha: string, o: Partial<PickCommitRequest__Output> = {}): PickCommitRequest__Output => ({
  diskPath: repo.diskPath,
  context: pushContext(repo.projectId, { userName: "Ada Lovelace", userEmail: "ada@example.com" }),
  sha,
  branch: "main",
  dryRun: false,
  message: "",
  ...o,
});
const cherryPick = (sha: string, o: Partial<PickCommitRequest__Output> = {}) => cherryPickCommit(t.deps)(request(sha, o));
const revert = (sha: string, o: Partial<PickCommitRequest__Output> = {}) => revertCommit(t.deps)(request(sha, o));
const headOf = (branch: string) => gitIn(repo.dir, "rev-parse", `refs/heads/${branch}`);
const files = (rev: string) => gitIn(repo.dir, "ls-tree", "-r", "--name-only", rev);
const FAILED =
  "Can't perform this action automatically. It may have already been done, or a more recent commit may have updated some of this content. Please perform this action locally.";

describe("CherryPickCommit", () => {
  it("applies the commit's change onto the branch, keeping its author; the acting user commits", async () => {
    const { commit } = await cherryPick("feature");
    expect(headOf("main")).toBe(commit!.id);
    expect(commit).toMatchObject({
      parentIds: [main],
      message: `Feature work\n\nWith a body.\n\n(cherry picked from commit ${feature})`,
      title: "Feature work",
      authorName: "Grace Hopper",
      authorEmail: "grace@example.com",
      authoredDate: "2026-10-01T08:30:00+02:00",
      committerName: "Ada Lovelace",
      committerEmail: "ada@example.com",
    });
    expect(files("main")).toBe("a.txt\nb.txt\ndir/c.txt");
    expect(gitIn(repo.dir, "show", "main:a.txt")).toBe("one\n2\n3");
    expect(gitIn(repo.dir, "show", "main:b.txt")).toBe("bee");
    const events = await outboxPayloads(t, repo.projectId);
    expect(events.map((e) => e.payload)).toMatchObject([
      { ref: "refs/heads/main", before: main, after: commit!.id, commits: [{ id: commit!.id, added: ["dir/c.txt"], modified: ["a.txt"], removed: [] }] },
    ]);
  });

  it("takes a custom message", async () => {
    const { commit } = await cherryPick(feature, { message: "Picked" });
    expect(commit!.message).toBe("Picked");
  });

  it("only checks on a dry run", async () => {
    expect(await cherryPick(feature, { dryRun: true })).toEqual({ commit: null });
    expect(headOf("main")).toBe(main);
    expect(await outboxPayloads(t, repo.projectId)).toEqual([]);
  });

  it("refuses a change that is already there (empty) or conflicts, with GitLab's error codes", async () => {
    await cherryPick(feature);
    const picked = headOf("main");
    await expect(cherryPick(feature)).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      body: { message: `Commit cherry-pick failed: ${FAILED}`, error_code: "empty" },
    });
    await expect(cherryPick(feature, { dryRun: true })).rejects.toMatchObject({ body: { error_code: "empty", dry_run: "error" } });
    const clash = makeTreeCommit(repo.dir, { "a.txt": "uno\n2\n3\n", "b.txt": "b\n" }, { message: "Clash\n", parents: [base] });
    const err = await cherryPick(clash).catch((e: unknown) => e);
    expect(err).toMatchObject({ body: { message: `Commit cherry-pick failed: ${FAILED}`, error_code: "conflict" } });
    expect((err as { body: object }).body).not.toHaveProperty("dry_run");
    expect(headOf("main")).toBe(picked);
  });

  it("takes a merge commit against its first parent", async () => {
    const merge = makeTreeCommit(
      repo.dir,
      { "a.txt": "one\n2\n3\n", "b.txt": "b\n", "dir/c.txt": "c\n" },
      { message: "Merge feature\n", parents: [base, feature] },
    );
    const { commit } = await cherryPick(merge, { branch: "main" });
    expect(files(commit!.id!)).toBe("a.txt\nb.txt\ndir/c.txt");
    expect(commit!.parentIds).toEqual([main]);
  });

  it("answers 404 for an unknown commit or branch and 403 on a branch the caller may not push to", async () => {
    await expect(cherryPick("0".repeat(40))).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Commit Not Found" } });
    await expect(cherryPick(feature, { branch: "nope" })).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Branch Not Found" } });
    await protectBranch(t.deps)({ projectId: repo.projectId, name: "main", allowForcePush: false, codeOwnerApprovalRequired: false });
    await expect(cherryPick(feature, { context: pushContext(repo.projectId, { accessLevel: 30 }) })).rejects.toMatchObject({
      code: status.PERMISSION_DENIED,
      body: { message: "403 Forbidden - You are not allowed to push into this branch" },
    });
    await t.deps.prisma.protectedBranch.deleteMany({ where: { projectId: repo.projectId } });
  });
});

describe("RevertCommit", () => {
  it("undoes the commit's change on the branch, authored by the acting user, with GitLab's message", async () => {
    const { commit } = await revert("main");
    expect(commit).toMatchObject({
      parentIds: [main],
      message: `Revert "Main work"\n\nThis reverts commit ${main}`,
      title: 'Revert "Main work"',
      authorName: "Ada Lovelace",
      committerName: "Ada Lovelace",
    });
    expect(gitIn(repo.dir, "show", "main:b.txt")).toBe("b");
    const [event] = await outboxPayloads(t, repo.projectId);
    expect(event!.payload).toMatchObject({ before: main, after: commit!.id, commits: [{ modified: ["b.txt"] }] });
  });

  it("refuses a revert that changes nothing or conflicts; a dry run writes nothing", async () => {
    expect(await revert(main, { dryRun: true })).toEqual({ commit: null });
    expect(headOf("main")).toBe(main);
    await expect(revert(feature)).rejects.toMatchObject({ body: { message: `Commit revert failed: ${FAILED}`, error_code: "empty" } });
    const later = makeTreeCommit(repo.dir, { "a.txt": "1\n2\n3\n", "b.txt": "bumble\n" }, { message: "Later\n", parents: [main] });
    gitIn(repo.dir, "update-ref", "refs/heads/main", later);
    await expect(revert(main)).rejects.toMatchObject({ body: { error_code: "conflict" } });
    await expect(revert(main, { dryRun: true })).rejects.toMatchObject({ body: { error_code: "conflict", dry_run: "error" } });
    expect(headOf("main")).toBe(later);
  });

  it("reverts a root commit (its parent is the empty tree)", async () => {
    const root = makeTreeCommit(repo.dir, { "r.txt": "r\n" }, { message: "Root\n" });
    const next = makeTreeCommit(repo.dir, { "r.txt": "r\n", "s.txt": "s\n" }, { message: "Next\n", parents: [root] });
    gitIn(repo.dir, "update-ref", "refs/heads/solo", next);
    const { commit } = await revert(root, { branch: "solo" });
    expect(files(commit!.id!)).toBe("s.txt");
  });
});
