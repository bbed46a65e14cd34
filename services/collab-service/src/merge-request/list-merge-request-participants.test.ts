import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type CollabTestContext } from "../../test/support.ts";
import { mergeRequestFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_participants");
});
afterAll(() => t?.close());

describe("ListMergeRequestParticipants", () => {
  it("lists the author, commenters (internal ones for Reporter+), assignees and reviewers once each", async () => {
    const f = await mergeRequestFixture(t, { visibility: "public" });
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    const mr = await f.create(f.developer, { assigneeIds: [f.maintainer.userId, f.developer.userId], reviewerIds: [f.owner.userId] });
    const note = { noteableType: "MergeRequest", noteableId: Number(mr.id), projectId: f.project.id, discussionId: "a".repeat(40) };
    await t.svc.deps.prisma.note.createMany({
      data: [
        { ...note, authorId: f.reporter.userId, body: "looks good" },
        { ...note, authorId: f.outsider.userId, body: "internal", internal: true },
        { ...note, authorId: f.guest.userId, body: "changed", system: true },
        { ...note, authorId: f.maintainer.userId, body: "again" },
      ],
    });
    const seen = (await t.client.ListMergeRequestParticipants({ actor: f.reporter, ...f.ref(1) })).userIds.map(Number);
    expect(seen).toEqual([f.developer.userId, f.reporter.userId, f.outsider.userId, f.maintainer.userId, f.owner.userId]);
    const anonymous = (await t.client.ListMergeRequestParticipants({ actor: t.anonymous, ...f.ref(1) })).userIds.map(Number);
    expect(anonymous).toEqual([f.developer.userId, f.reporter.userId, f.maintainer.userId, f.owner.userId]);
  });
});
