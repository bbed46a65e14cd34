import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { mergeRequestFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_unapprove");
});
afterAll(() => t?.close());

const db = () => t.svc.deps.prisma;
const actions = async (id: number) =>
  (await db().outboxEvent.findMany({ where: { subject: "quarry.collab.merge_request" }, orderBy: { id: "asc" } }))
    // biome-ignore lint/suspicious/noExplicitAny: the event's JSON is read freely.
    .map((e) => e.payload as Record<string, any>)
    .filter((p) => p.object_attributes.id === id)
    .map((p) => p.object_attributes.action);

describe("UnapproveMergeRequest", () => {
  it("removes the caller's approval with its note, the reviewer's unapproved state and the unapproved hook event", async () => {
    const f = await mergeRequestFixture(t);
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    const mr = await f.create(f.developer, { reviewerIds: [f.maintainer.userId] });
    const id = Number(mr.id);
    await t.client.ApproveMergeRequest({ actor: f.maintainer, ...f.ref(1) });
    await t.client.ApproveMergeRequest({ actor: f.owner, ...f.ref(1) });
    const state = await t.client.UnapproveMergeRequest({ actor: f.maintainer, ...f.ref(1) });
    expect(state).toMatchObject({ approved: true, userHasApproved: false, userCanApprove: true });
    expect(state.approvedBy.map((a) => Number(a.userId))).toEqual([f.owner.userId]);
    expect(await db().mergeRequestReviewer.findMany({ where: { mergeRequestId: id } })).toMatchObject([{ userId: f.maintainer.userId, state: "unapproved" }]);
    const notes = await db().note.findMany({ where: { noteableType: "MergeRequest", noteableId: id, system: true }, orderBy: { id: "asc" } });
    expect(notes.map((n) => [n.body, n.authorId]).slice(-1)).toEqual([["unapproved this merge request", f.maintainer.userId]]);
    // Each removal took an approval from an approved merge request: `unapproved` both times (EE).
    await t.client.UnapproveMergeRequest({ actor: f.owner, ...f.ref(1) });
    expect((await actions(id)).slice(-4)).toEqual(["approved", "approved", "unapproved", "unapproved"]);
  });

  it("sends `unapproval` when the merge request was not approved before", async () => {
    const f = await mergeRequestFixture(t);
    await t.identity.UpdateProject({
      actor: t.admin,
      idOrPath: String(f.project.id),
      topics: [],
      topicsSet: false,
      mergeSettings: { approvalsBeforeMerge: 2 },
    });
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    const mr = await f.create(f.developer);
    await t.client.ApproveMergeRequest({ actor: f.maintainer, ...f.ref(1) });
    expect(await t.client.UnapproveMergeRequest({ actor: f.maintainer, ...f.ref(1) })).toMatchObject({ approvalsLeft: 2, approved: false });
    expect((await actions(Number(mr.id))).slice(-2)).toEqual(["approval", "unapproval"]);
  });

  it("answers 404 without an approval or on a merged merge request, 403 to who may not approve, 401 anonymously", async () => {
    const f = await mergeRequestFixture(t);
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    const mr = await f.create(f.developer);
    const notFound = { status: 404, body: { message: "404 Not Found" } };
    expect(await failure(t.client.UnapproveMergeRequest({ actor: f.maintainer, ...f.ref(1) }))).toEqual(notFound);
    await t.client.ApproveMergeRequest({ actor: f.maintainer, ...f.ref(1) });
    await db().mergeRequest.update({ where: { id: Number(mr.id) }, data: { state: "merged" } });
    expect(await failure(t.client.UnapproveMergeRequest({ actor: f.maintainer, ...f.ref(1) }))).toEqual(notFound);
    expect(await db().mergeRequestApproval.count({ where: { mergeRequestId: Number(mr.id) } })).toBe(1);
    expect(await failure(t.client.UnapproveMergeRequest({ actor: f.reporter, ...f.ref(1) }))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    expect((await failure(t.client.UnapproveMergeRequest({ actor: t.anonymous, ...f.ref(1) }))).status).toBe(404);
  });
});
