import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { mergeRequestFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_get");
});
afterAll(() => t?.close());

describe("GetMergeRequest", () => {
  it("counts user notes and thumbs votes, and tells first contributions and diverged commits", async () => {
    const f = await mergeRequestFixture(t);
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    const mr = await f.create(f.developer);
    const db = t.svc.deps.prisma;
    const note = {
      noteableType: "MergeRequest",
      noteableId: Number(mr.id),
      projectId: f.project.id,
      authorId: f.developer.userId,
      discussionId: "d".repeat(40),
    };
    await db.note.createMany({
      data: [
        { ...note, body: "a" },
        { ...note, body: "b" },
        { ...note, body: "changed", system: true },
      ],
    });
    const award = { awardableType: "MergeRequest", awardableId: Number(mr.id) };
    await db.awardEmoji.createMany({
      data: [
        { ...award, name: "thumbsup", userId: f.developer.userId },
        { ...award, name: "thumbsup", userId: f.owner.userId },
        { ...award, name: "thumbsdown", userId: f.reporter.userId },
        { ...award, name: "tada", userId: f.reporter.userId },
      ],
    });
    const got = await t.client.GetMergeRequest({ actor: f.reporter, ...f.ref(1) });
    expect(got).toMatchObject({ iid: 1, userNotesCount: 2, upvotes: 2, downvotes: 1, firstContribution: true, divergedCommitsCount: 0 });

    // main moves on by two commits: the merge request is two commits behind when asked.
    await f.commit("main", { "m1.txt": "1" });
    await f.commit("main", { "m2.txt": "2" });
    expect((await t.client.GetMergeRequest({ actor: f.reporter, ...f.ref(1), includeDivergedCommitsCount: true })).divergedCommitsCount).toBe(2);

    // Once the author has a merged merge request, the next is no first contribution; the merged one still is.
    await db.mergeRequest.update({ where: { id: Number(mr.id) }, data: { state: "merged", mergedAt: new Date() } });
    await f.commit("second", { "s.txt": "s" }, { startBranch: "main" });
    const second = await f.create(f.developer, { sourceBranch: "second" });
    expect(second.firstContribution).toBe(false);
    expect((await t.client.GetMergeRequest({ actor: f.reporter, ...f.ref(1) })).firstContribution).toBe(true);
    expect((await t.client.GetMergeRequest({ actor: f.reporter, ...f.ref(1) })).detailedMergeStatus).toBe("not_open");
  });

  it("answers 404 Not found for unknown iids, 403 to Guests of a private project, 404 Project Not Found to outsiders", async () => {
    const f = await mergeRequestFixture(t);
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    await f.create(f.developer);
    for (const iid of [2, 0, -1, 2 ** 31]) {
      expect(await failure(t.client.GetMergeRequest({ actor: f.reporter, ...f.ref(iid) }))).toEqual({ status: 404, body: { message: "404 Not found" } });
    }
    expect(await failure(t.client.GetMergeRequest({ actor: f.guest, ...f.ref(1) }))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    for (const actor of [f.outsider, t.anonymous]) {
      expect(await failure(t.client.GetMergeRequest({ actor, ...f.ref(1) }))).toEqual({ status: 404, body: { message: "404 Project Not Found" } });
    }
  });

  it("lets anyone who can read a public project read its merge requests", async () => {
    const f = await mergeRequestFixture(t, { visibility: "public" });
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    await f.create(f.developer);
    for (const actor of [t.anonymous, f.outsider, f.guest]) expect((await t.client.GetMergeRequest({ actor, ...f.ref(1) })).iid).toBe(1);
  });

  it("checks a stale merge status when one merge request is read, not when a list shows it (GitLab's lists show the cached value)", async () => {
    const f = await mergeRequestFixture(t);
    await f.commit("feature", { "b.txt": "b" }, { startBranch: "main" });
    const mr = await f.create(f.developer);
    const db = t.svc.deps.prisma;
    // What a push to the source or target branch leaves behind.
    await db.mergeRequest.update({ where: { id: Number(mr.id) }, data: { mergeStatus: "unchecked" } });
    const listed = await t.client.ListMergeRequests({ actor: f.reporter, project: String(f.project.id) });
    expect(listed.mergeRequests.map((m) => [m.mergeStatus, m.detailedMergeStatus, m.hasConflicts, m.canMerge])).toEqual([
      ["unchecked", "unchecked", false, false],
    ]);
    expect((await db.mergeRequest.findUniqueOrThrow({ where: { id: Number(mr.id) } })).mergeStatus).toBe("unchecked");
    const got = await t.client.GetMergeRequest({ actor: f.maintainer, ...f.ref(mr.iid) });
    expect([got.mergeStatus, got.detailedMergeStatus, got.canMerge]).toEqual(["can_be_merged", "mergeable", true]);
    expect((await db.mergeRequest.findUniqueOrThrow({ where: { id: Number(mr.id) } })).mergeStatus).toBe("can_be_merged");
  });
});
