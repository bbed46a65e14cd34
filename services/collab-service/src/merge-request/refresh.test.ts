import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type CollabTestContext } from "../../test/support.ts";
import { addedCommitsBody } from "./refresh.ts";
import { mergeRequestFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_refresh");
});
afterAll(() => t?.close());

const db = () => t.svc.deps.prisma;
const headRef = async (diskPath: string, iid: number) =>
  (await t.svc.deps.repo.FindCommit({ diskPath, revision: `refs/merge-requests/${iid}/head` })).commit!.id;

describe("addedCommitsBody", () => {
  it("writes GitLab's added-commits note with escaped titles", () => {
    expect(addedCommitsBody([{ id: "a".repeat(40), shortId: "aaaaaaaa", title: "Fix <b>" }], "/g/p/-/merge_requests/1?diff_id=2&start_sha=x")).toBe(
      "added 1 commit\n\n<ul><li>aaaaaaaa - Fix &lt;b&gt;</li></ul>\n\n[Compare with previous version](/g/p/-/merge_requests/1?diff_id=2&start_sha=x)",
    );
  });
});

describe("the push refresh", () => {
  it("records a new diff version on a push to the source branch: head ref, unchecked, note, update event with oldrev", async () => {
    const f = await mergeRequestFixture(t);
    const first = await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    const mr = await f.create(f.developer);
    const id = Number(mr.id);
    await db().mergeRequest.update({ where: { id }, data: { mergeStatus: "can_be_merged", mergeWhenPipelineSucceeds: true, mergeUserId: f.developer.userId } });
    const second = await f.commit("feature", { "b.txt": "b" }, { message: "Add b" });
    const third = await f.commit("feature", { "c.txt": "c" }, { message: "Add c" });
    const diffs = await waitFor(async () => {
      const rows = await db().mergeRequestDiff.findMany({ where: { mergeRequestId: id }, orderBy: { id: "asc" } });
      return rows.length === 3 ? rows : undefined;
    });
    expect(diffs.map((d) => d.headCommitSha)).toEqual([first, second, third]);
    expect(diffs[2]!.commitShas).toEqual([third, second, first]);
    const row = await db().mergeRequest.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ headSha: third, mergeStatus: "unchecked", mergeWhenPipelineSucceeds: false });
    expect(await headRef(f.project.diskPath, 1)).toBe(third);
    const notes = (await db().note.findMany({ where: { noteableType: "MergeRequest", noteableId: id }, orderBy: { id: "asc" } })).map((n) => n.body);
    expect(notes).toEqual([
      `added 1 commit\n\n<ul><li>${second.slice(0, 8)} - Add b</li></ul>\n\n[Compare with previous version](/${f.project.path}/-/merge_requests/1?diff_id=${diffs[1]!.id}&start_sha=${first})`,
      "aborted the automatic merge because source branch was updated",
      `added 1 commit\n\n<ul><li>${third.slice(0, 8)} - Add c</li></ul>\n\n[Compare with previous version](/${f.project.path}/-/merge_requests/1?diff_id=${diffs[2]!.id}&start_sha=${second})`,
    ]);
    const events = (await db().outboxEvent.findMany({ where: { subject: "quarry.collab.merge_request" }, orderBy: { id: "asc" } }))
      // biome-ignore lint/suspicious/noExplicitAny: the event's JSON is read freely.
      .map((e) => e.payload as Record<string, any>)
      .filter((p) => p.object_attributes.id === id);
    expect(events.map((e) => [e.object_attributes.action, e.object_attributes.oldrev, e.ci.head_sha])).toEqual([
      ["open", undefined, first],
      ["update", first, second],
      ["update", second, third],
    ]);
    const got = await t.client.GetMergeRequest({ actor: f.developer, ...f.ref(1) });
    expect(got).toMatchObject({ sha: third, latestDiffId: diffs[2]!.id, changesCount: "3" });
  });

  it("marks merge requests into a pushed branch unchecked, keeps them open when their source branch goes, and merges them when their head arrives", async () => {
    const f = await mergeRequestFixture(t);
    // An unprotected target, so the test can push to it by force.
    await f.commit("stable", { "s.txt": "s" }, { startBranch: "main" });
    const head = await f.commit("feature", { "a.txt": "a" }, { startBranch: "stable" });
    const mr = await f.create(f.developer, { targetBranch: "stable" });
    const id = Number(mr.id);
    await db().mergeRequest.update({ where: { id }, data: { mergeStatus: "can_be_merged" } });
    await f.commit("stable", { "m.txt": "m" });
    await waitFor(async () => ((await db().mergeRequest.findUniqueOrThrow({ where: { id } })).mergeStatus === "unchecked" ? true : undefined));

    // The source branch is deleted: the merge request stays open with its last version.
    await f.commit("keep", { "k.txt": "k" }, { startBranch: "main" });
    const kept = await f.create(f.developer, { sourceBranch: "keep" });
    await t.svc.deps.repo.DeleteBranch({
      diskPath: f.project.diskPath,
      name: "keep",
      context: f.context,
    });
    // The head of `feature` and a commit on top are pushed to stable by hand: merged.
    await t.svc.deps.repo.CommitFiles({
      diskPath: f.project.diskPath,
      context: f.context,
      branch: "stable",
      commitMessage: "Merge feature by hand",
      actions: [{ action: "create", filePath: "z.txt", content: Buffer.from("z") }],
      startSha: head,
      force: true,
    });
    const merged = await waitFor(async () => {
      const row = await db().mergeRequest.findUniqueOrThrow({ where: { id } });
      return row.state === "merged" ? row : undefined;
    });
    expect(merged.mergeCommitSha).toBe(head);
    expect(merged.mergedAt).toBeTruthy();
    expect((await db().resourceStateEvent.findFirst({ where: { mergeRequestId: id } }))?.state).toBe("merged");
    expect((await db().mergeRequest.findUniqueOrThrow({ where: { id: Number(kept.id) } })).state).toBe("opened");
  });
});
