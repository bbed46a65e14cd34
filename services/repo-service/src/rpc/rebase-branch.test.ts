import { status } from "@quarry/grpc";
import type { RebaseBranchRequest__Output } from "@quarry/proto/types/repo/v1/RebaseBranchRequest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { gitIn, makeTreeCommit, outboxPayloads, pushContext, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { rebaseBranch } from "./rebase-branch.ts";

let t: TestContext;
let repo: { diskPath: string; dir: string; projectId: number };
let base: string;
let main: string;
let one: string;
let two: string;

const grace = { name: "Grace Hopper", email: "grace@example.com", date: "2026-10-01T08:30:00+02:00" };

beforeAll(async () => {
  t = await setUp("repo_rebase_branch");
});
afterAll(() => t?.close());

beforeEach(async () => {
  repo = await repositoryWith(t);
  base = makeTreeCommit(repo.dir, { "a.txt": "1\n2\n3\n", "b.txt": "b\n" }, { message: "Base\n" });
  main = makeTreeCommit(repo.dir, { "a.txt": "1\n2\n3\n", "b.txt": "bee\n" }, { message: "Main\n", parents: [base] });
  one = makeTreeCommit(repo.dir, { "a.txt": "one\n2\n3\n", "b.txt": "b\n" }, { message: "One\n\nBody kept.\n", parents: [base], author: grace });
  two = makeTreeCommit(repo.dir, { "a.txt": "one\n2\n3\n", "b.txt": "b\n", "c.txt": "c\n" }, { message: "Two\n", parents: [one], author: grace });
  gitIn(repo.dir, "update-ref", "refs/heads/main", main);
  gitIn(repo.dir, "update-ref", "refs/heads/feature", two);
});

const request = (o: Partial<RebaseBranchRequest__Output> = {}): RebaseBranchRequest__Output => ({
  diskPath: repo.diskPath,
  context: pushContext(repo.projectId),
  sourceBranch: "feature",
  expectedSourceSha: two,
  targetBranch: "main",
  committer: { name: "Rebase Bot", email: "bot@example.com" },
  ...o,
});
const rebase = (o: Partial<RebaseBranchRequest__Output> = {}) => rebaseBranch(t.deps)(request(o));
const headOf = (branch: string) => gitIn(repo.dir, "rev-parse", `refs/heads/${branch}`);

describe("RebaseBranch", () => {
  it("replays the source's commits onto the target head, keeping authors and messages; push event of the rewrite", async () => {
    const out = await rebase();
    expect(out).toEqual({ rebasedSha: headOf("feature"), replayedCount: 2 });
    expect(gitIn(repo.dir, "log", "--format=%s|%an|%ad|%cn <%ce>", "--date=raw", "feature")).toBe(
      [
        `Two|Grace Hopper|${gitIn(repo.dir, "log", "-1", "--format=%ad", "--date=raw", two)}|Rebase Bot <bot@example.com>`,
        `One|Grace Hopper|${gitIn(repo.dir, "log", "-1", "--format=%ad", "--date=raw", one)}|Rebase Bot <bot@example.com>`,
        `Main|Ada Lovelace|${gitIn(repo.dir, "log", "-1", "--format=%ad", "--date=raw", main)}|Ada Lovelace <ada@example.com>`,
        `Base|Ada Lovelace|${gitIn(repo.dir, "log", "-1", "--format=%ad", "--date=raw", base)}|Ada Lovelace <ada@example.com>`,
      ].join("\n"),
    );
    expect(gitIn(repo.dir, "log", "-1", "--format=%B", "feature~1")).toBe("One\n\nBody kept.");
    expect(gitIn(repo.dir, "rev-parse", "feature~2")).toBe(main);
    expect(gitIn(repo.dir, "show", "feature:a.txt")).toBe("one\n2\n3");
    expect(gitIn(repo.dir, "show", "feature:b.txt")).toBe("bee");
    expect(gitIn(repo.dir, "show", "feature:c.txt")).toBe("c");
    expect(headOf("main")).toBe(main);
    const events = await outboxPayloads(t, repo.projectId);
    expect(events).toHaveLength(1);
    // As a force push of the same rewrite: every commit the old head lacks (the target's too).
    expect(events[0]!.payload).toMatchObject({ ref: "refs/heads/feature", before: two, after: out.rebasedSha, total_commits_count: 3 });
    expect((events[0]!.payload.commits as { id: string }[]).map((c) => c.id)).toEqual([main, gitIn(repo.dir, "rev-parse", "feature~1"), out.rebasedSha]);
  });

  it("drops a commit whose change the target already has", async () => {
    const picked = makeTreeCommit(repo.dir, { "a.txt": "one\n2\n3\n", "b.txt": "bee\n" }, { message: "One, picked\n", parents: [main] });
    gitIn(repo.dir, "update-ref", "refs/heads/main", picked);
    const out = await rebase();
    expect(out.replayedCount).toBe(1);
    expect(gitIn(repo.dir, "log", "--format=%s", "feature")).toBe("Two\nOne, picked\nMain\nBase");
  });

  it("leaves a source that already contains the target alone (no event)", async () => {
    gitIn(repo.dir, "update-ref", "refs/heads/main", base);
    expect(await rebase()).toEqual({ rebasedSha: two, replayedCount: 0 });
    expect(headOf("feature")).toBe(two);
    expect(await outboxPayloads(t, repo.projectId)).toEqual([]);
  });

  it("conflicts: FAILED_PRECONDITION with the paths; nothing moves", async () => {
    const clash = makeTreeCommit(repo.dir, { "a.txt": "uno\n2\n3\n", "b.txt": "bee\n" }, { message: "Clash\n", parents: [main] });
    gitIn(repo.dir, "update-ref", "refs/heads/main", clash);
    await expect(rebase()).rejects.toMatchObject({
      code: status.FAILED_PRECONDITION,
      body: { message: "Rebase failed: conflicts: a.txt", conflicts: ["a.txt"] },
    });
    expect(headOf("feature")).toBe(two);
    expect(await outboxPayloads(t, repo.projectId)).toEqual([]);
  });

  it("compare-and-swap: a source that moved from the expected head → ABORTED", async () => {
    await expect(rebase({ expectedSourceSha: one })).rejects.toMatchObject({ code: status.ABORTED });
    expect(headOf("feature")).toBe(two);
    await expect(rebase({ targetBranch: "nope" })).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Branch Not Found" } });
    await expect(rebase({ sourceBranch: "" })).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, body: { error: "source_branch is missing" } });
  });
});
