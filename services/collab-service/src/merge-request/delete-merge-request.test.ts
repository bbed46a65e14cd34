import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { mergeRequestFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_delete");
});
afterAll(() => t?.close());

describe("DeleteMergeRequest", () => {
  it("is for Owners and administrators, and takes notes, emoji, resource events, diff versions and refs with it", async () => {
    const f = await mergeRequestFixture(t);
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    const mr = await f.create(f.developer, { labels: ["l"], assigneeIds: [f.developer.userId] });
    await t.client.UpdateMergeRequest({ actor: f.developer, ...f.ref(1), stateEvent: "close" });
    const db = t.svc.deps.prisma;
    const id = Number(mr.id);
    const note = await db.note.create({
      data: { noteableType: "MergeRequest", noteableId: id, projectId: f.project.id, authorId: f.developer.userId, body: "hi", discussionId: "e".repeat(40) },
    });
    await db.awardEmoji.createMany({
      data: [
        { name: "thumbsup", userId: f.developer.userId, awardableType: "MergeRequest", awardableId: id },
        { name: "tada", userId: f.developer.userId, awardableType: "Note", awardableId: note.id },
      ],
    });
    for (const actor of [f.developer, f.maintainer, f.reporter]) {
      expect(await failure(t.client.DeleteMergeRequest({ actor, ...f.ref(1) }))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    }
    expect(await failure(t.client.DeleteMergeRequest({ actor: f.owner, ...f.ref(7) }))).toEqual({ status: 404, body: { message: "404 Not found" } });
    await t.client.DeleteMergeRequest({ actor: f.owner, ...f.ref(1) });
    expect(await db.mergeRequest.count({ where: { id } })).toBe(0);
    expect(await db.note.count({ where: { noteableType: "MergeRequest", noteableId: id } })).toBe(0);
    expect(
      await db.awardEmoji.count({
        where: {
          OR: [
            { awardableType: "MergeRequest", awardableId: id },
            { awardableType: "Note", awardableId: note.id },
          ],
        },
      }),
    ).toBe(0);
    expect(await db.resourceLabelEvent.count({ where: { mergeRequestId: id } })).toBe(0);
    expect(await db.resourceStateEvent.count({ where: { mergeRequestId: id } })).toBe(0);
    expect(await db.mergeRequestDiff.count({ where: { mergeRequestId: id } })).toBe(0);
    expect(await db.mergeRequestAssignee.count({ where: { mergeRequestId: id } })).toBe(0);
    expect(await failure(t.svc.deps.repo.FindCommit({ diskPath: f.project.diskPath, revision: "refs/merge-requests/1/head" }))).toMatchObject({ status: 404 });
    expect(await failure(t.client.GetMergeRequest({ actor: f.owner, ...f.ref(1) }))).toEqual({ status: 404, body: { message: "404 Not found" } });
    // The iid is not handed out again.
    expect((await f.create(f.developer)).iid).toBe(2);
  });
});
