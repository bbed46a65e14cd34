import { status } from "@quarry/grpc";
import type { MergeToBranchRequest__Output } from "@quarry/proto/types/repo/v1/MergeToBranchRequest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { gitIn, makeTreeCommit, outboxPayloads, pushContext, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { mergeToBranch } from "./merge-to-branch.ts";
import { protectBranch } from "./protect-branch.ts";

let t: TestContext;
let repo: { diskPath: string; dir: string; projectId: number };
let base: string;
let main: string;
let one: string;
let two: string;

const grace = { name: "Grace Hopper", email: "grace@example.com", date: "2026-10-01T08:30:00+02:00" };
const MESSAGE = "Merge branch 'feature' into 'main'\n\nAdd c\n\nSee merge request ada/my-project!1";

beforeAll(async () => {
  t = await setUp("repo_merge_to_branch");
});
afterAll(() => t?.close());

beforeEach(async () => {
  repo = await repositoryWith(t);
  base = makeTreeCommit(repo.dir, { "a.txt": "1\n2\n3\n", "b.txt": "b\n" }, { message: "Base\n" });
  main = makeTreeCommit(repo.dir, { "a.txt": "1\n2\n3\n", "b.txt": "bee\n" }, { message: "Main\n", parents: [base] });
  one = makeTreeCommit(repo.dir, { "a.txt": "one\n2\n3\n", "b.txt": "b\n" }, { message: "One\n", parents: [base], author: grace });
  two = makeTreeCommit(repo.dir, { "a.txt": "one\n2\n3\n", "b.txt": "b\n", "c.txt": "c\n" }, { message: "Two\n", parents: [one], author: grace });
  gitIn(repo.dir, "update-ref", "refs/heads/main", main);
  gitIn(repo.dir, "update-ref", "refs/heads/feature", two);
});

const request = (o: Partial<MergeToBranchRequest__Output> = {}): MergeToBranchRequest__Output => ({
  diskPath: repo.diskPath,
  context: pushContext(repo.projectId, { userName: "Ada Lovelace", userEmail: "ada@example.com" }),
  targetBranch: "main",
  sourceSha: two,
  expectedTargetSha: main,
  mergeMethod: "merge",
  squash: false,
  mergeCommitMessage: MESSAGE,
  squashCommitMessage: "",
  author: null,
  committer: null,
  ...o,
});
const merge = (o: Partial<MergeToBranchRequest__Output> = {}) => mergeToBranch(t.deps)(request(o));
const headOf = (branch: string) => gitIn(repo.dir, "rev-parse", `refs/heads/${branch}`);
const parents = (sha = "") => gitIn(repo.dir, "log", "-1", "--format=%P", sha).split(" ");
const catFile = (sha = "") => gitIn(repo.dir, "cat-file", "commit", sha);

describe("MergeToBranch", () => {
  it("merge: a merge commit of the target and the source with the request's message, authored by the acting user; push event", async () => {
    const out = await merge();
    expect(out).toEqual({ mergeCommitSha: out.mergeCommitSha, squashCommitSha: "", targetSha: out.mergeCommitSha });
    expect(headOf("main")).toBe(out.mergeCommitSha);
    expect(parents(out.mergeCommitSha)).toEqual([main, two]);
    expect(catFile(out.mergeCommitSha)).toMatch(/\nauthor Ada Lovelace <ada@example.com> \d+ [+-]\d{4}\ncommitter Ada Lovelace <ada@example.com> /);
    expect(catFile(out.mergeCommitSha).endsWith(`\n\n${MESSAGE}`)).toBe(true);
    expect(gitIn(repo.dir, "ls-tree", "-r", "--name-only", "main")).toBe("a.txt\nb.txt\nc.txt");
    expect(gitIn(repo.dir, "show", "main:a.txt")).toBe("one\n2\n3");
    expect(gitIn(repo.dir, "show", "main:b.txt")).toBe("bee");
    expect(gitIn(repo.dir, "log", "--first-parent", "--format=%s", "main")).toBe("Merge branch 'feature' into 'main'\nMain\nBase");
    expect(gitIn(repo.dir, "log", "--format=%s", "main^2")).toBe("Two\nOne\nBase");
    const events = await outboxPayloads(t, repo.projectId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      subject: "quarry.repo.push",
      payload: {
        ref: "refs/heads/main",
        before: main,
        after: out.mergeCommitSha,
        checkout_sha: out.mergeCommitSha,
        total_commits_count: 3,
        ref_protected: false,
      },
    });
    expect((events[0]!.payload.commits as { id: string }[]).map((c) => c.id)).toEqual([one, two, out.mergeCommitSha]);
  });

  it("takes author and committer from the request; protected branches are not checked here (the caller's job)", async () => {
    await protectBranch(t.deps)({
      projectId: repo.projectId,
      name: "main",
      pushAccessLevel: 0,
      mergeAccessLevel: 0,
      allowForcePush: false,
      codeOwnerApprovalRequired: false,
    });
    const out = await merge({
      context: pushContext(repo.projectId, { accessLevel: 30 }),
      author: { name: "Grace Hopper", email: "grace@example.com" },
      committer: { name: "Merge Bot", email: "bot@example.com" },
    });
    expect(catFile(out.mergeCommitSha)).toMatch(/\nauthor Grace Hopper <grace@example.com> .*\ncommitter Merge Bot <bot@example.com> /);
    const [event] = await outboxPayloads(t, repo.projectId);
    expect(event!.payload).toMatchObject({ ref_protected: true });
  });

  it("squash: one commit on the merge base with the source's tree, then the merge commit", async () => {
    const out = await merge({ squash: true, squashCommitMessage: "Add c\n" });
    expect(parents(out.squashCommitSha)).toEqual([base]);
    expect(gitIn(repo.dir, "rev-parse", `${out.squashCommitSha}^{tree}`)).toBe(gitIn(repo.dir, "rev-parse", `${two}^{tree}`));
    expect(catFile(out.squashCommitSha).endsWith("\n\nAdd c")).toBe(true);
    expect(parents(out.mergeCommitSha)).toEqual([main, out.squashCommitSha]);
    expect(headOf("main")).toBe(out.mergeCommitSha);
    expect(gitIn(repo.dir, "log", "--first-parent", "--format=%s", "main")).toBe("Merge branch 'feature' into 'main'\nMain\nBase");
    expect(gitIn(repo.dir, "log", "--format=%s", "main^2")).toBe("Add c\nBase");
    expect(headOf("feature")).toBe(two);
  });

  it("ff: moves the branch to the source without a merge commit; refuses a diverged source with FAILED_PRECONDITION", async () => {
    await expect(merge({ mergeMethod: "ff" })).rejects.toMatchObject({ code: status.FAILED_PRECONDITION });
    expect(headOf("main")).toBe(main);
    const ahead = makeTreeCommit(repo.dir, { "a.txt": "x\n" }, { message: "Ahead\n", parents: [main] });
    expect(await merge({ mergeMethod: "ff", sourceSha: ahead })).toEqual({ mergeCommitSha: "", squashCommitSha: "", targetSha: ahead });
    expect(headOf("main")).toBe(ahead);
    const [event] = await outboxPayloads(t, repo.projectId);
    expect(event!.payload).toMatchObject({ before: main, after: ahead, total_commits_count: 1 });
  });

  it("ff with squash: the squash commit becomes the head", async () => {
    const a1 = makeTreeCommit(repo.dir, { "a.txt": "x\n" }, { message: "A1\n", parents: [main] });
    const a2 = makeTreeCommit(repo.dir, { "a.txt": "y\n" }, { message: "A2\n", parents: [a1] });
    const out = await merge({ mergeMethod: "ff", sourceSha: a2, squash: true, squashCommitMessage: "Squashed" });
    expect(out).toEqual({ mergeCommitSha: "", squashCommitSha: out.squashCommitSha, targetSha: out.squashCommitSha });
    expect(parents(out.squashCommitSha)).toEqual([main]);
    expect(gitIn(repo.dir, "log", "--format=%s", "main")).toBe("Squashed\nMain\nBase");
  });

  it("rebase_merge: a merge commit only when the source contains the target head", async () => {
    await expect(merge({ mergeMethod: "rebase_merge" })).rejects.toMatchObject({ code: status.FAILED_PRECONDITION });
    const ahead = makeTreeCommit(repo.dir, { "a.txt": "x\n" }, { message: "Ahead\n", parents: [main] });
    const out = await merge({ mergeMethod: "rebase_merge", sourceSha: ahead });
    expect(parents(out.mergeCommitSha)).toEqual([main, ahead]);
    expect(gitIn(repo.dir, "rev-parse", "main^{tree}")).toBe(gitIn(repo.dir, "rev-parse", `${ahead}^{tree}`));
    expect(headOf("main")).toBe(out.mergeCommitSha);
  });

  it("conflicts: FAILED_PRECONDITION with the conflicting paths; nothing moves, no event", async () => {
    const clash = makeTreeCommit(repo.dir, { "a.txt": "1\n2\n3\n", "b.txt": "bumble\n" }, { message: "Clash\n", parents: [base] });
    const err = await merge({ sourceSha: clash }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: status.FAILED_PRECONDITION, body: { message: "Merge failed: conflicts: b.txt", conflicts: ["b.txt"] } });
    expect(headOf("main")).toBe(main);
    expect(await outboxPayloads(t, repo.projectId)).toEqual([]);
  });

  it("compare-and-swap: a target that moved from the expected head → ABORTED, nothing written", async () => {
    const moved = makeTreeCommit(repo.dir, { "a.txt": "moved\n" }, { message: "Moved\n", parents: [main] });
    gitIn(repo.dir, "update-ref", "refs/heads/main", moved);
    await expect(merge()).rejects.toMatchObject({ code: status.ABORTED, body: { message: "Branch 'main' has moved; refresh and try again" } });
    expect(headOf("main")).toBe(moved);
    expect(await outboxPayloads(t, repo.projectId)).toEqual([]);
  });

  it("refuses bad input: unknown method, missing messages, unknown branch or commit", async () => {
    await expect(merge({ mergeMethod: "octopus" })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      body: { error: "merge_method does not have a valid value" },
    });
    await expect(merge({ squash: true })).rejects.toMatchObject({ body: { error: "squash_commit_message is missing" } });
    await expect(merge({ mergeCommitMessage: "" })).rejects.toMatchObject({ body: { error: "merge_commit_message is missing" } });
    await expect(merge({ targetBranch: "nope" })).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Branch Not Found" } });
    await expect(merge({ sourceSha: "e".repeat(40) })).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Commit Not Found" } });
    await expect(merge({ context: null })).rejects.toMatchObject({ body: { error: "context is missing" } });
    expect(headOf("main")).toBe(main);
  });
});
