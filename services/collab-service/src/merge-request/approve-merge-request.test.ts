import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { mergeRequestFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_approve");
});
afterAll(() => t?.close());

const db = () => t.svc.deps.prisma;
/** The merge request's hook events, oldest first. */
const events = async (id: number) =>
  (await db().outboxEvent.findMany({ where: { subject: "quarry.collab.merge_request" }, orderBy: { id: "asc" } }))
    // biome-ignore lint/suspicious/noExplicitAny: the event's JSON is read freely.
    .map((e) => e.payload as Record<string, any>)
    .filter((p) => p.object_attributes.id === id);
const settings = (projectId: number, mergeSettings: Record<string, unknown>) =>
  t.identity.UpdateProject({ actor: t.admin, idOrPath: String(projectId), topics: [], topicsSet: false, mergeSettings });

describe("ApproveMergeRequest", () => {
  it("records the approval with its note, the reviewer's approved state and the approved hook event", async () => {
    const f = await mergeRequestFixture(t);
    const head = await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    const mr = await f.create(f.developer, { reviewerIds: [f.maintainer.userId] });
    const id = Number(mr.id);
    const state = await t.client.ApproveMergeRequest({ actor: f.maintainer, ...f.ref(1), sha: head });
    expect(state).toMatchObject({
      approvedBy: [{ userId: f.maintainer.userId, approvedAt: expect.any(String) }],
      approvalsRequired: 0,
      approvalsLeft: 0,
      approved: true,
      userHasApproved: true,
      userCanApprove: false,
      mergeRequest: { iid: 1, id: mr.id },
    });
    expect(await db().mergeRequestApproval.findMany({ where: { mergeRequestId: id } })).toMatchObject([{ userId: f.maintainer.userId, sha: head }]);
    expect(await db().mergeRequestReviewer.findMany({ where: { mergeRequestId: id } })).toMatchObject([{ userId: f.maintainer.userId, state: "approved" }]);
    const notes = await db().note.findMany({ where: { noteableType: "MergeRequest", noteableId: id, system: true } });
    expect(notes.map((n) => [n.body, n.authorId])).toContainEqual(["approved this merge request", f.maintainer.userId]);
    const last = (await events(id)).at(-1)!;
    expect(last).toMatchObject({ user_id: f.maintainer.userId, object_attributes: { action: "approved", iid: 1 }, changes: {} });

    // A second approver of an approved merge request: `approved` again (one approval is enough).
    await t.client.ApproveMergeRequest({ actor: f.owner, ...f.ref(1) });
    expect((await events(id)).at(-1)!.object_attributes.action).toBe("approved");
  });

  it("needs approvals_before_merge approvals: `approval` until then, `approved` at the last one", async () => {
    const f = await mergeRequestFixture(t);
    await settings(f.project.id, { approvalsBeforeMerge: 2 });
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    const mr = await f.create(f.developer);
    const first = await t.client.ApproveMergeRequest({ actor: f.maintainer, ...f.ref(1) });
    expect(first).toMatchObject({ approvalsRequired: 2, approvalsLeft: 1, approved: false });
    expect((await events(Number(mr.id))).at(-1)!.object_attributes.action).toBe("approval");
    const second = await t.client.ApproveMergeRequest({ actor: f.owner, ...f.ref(1) });
    expect(second).toMatchObject({ approvalsRequired: 2, approvalsLeft: 0, approved: true });
    expect(second.approvedBy.map((a) => Number(a.userId))).toEqual([f.maintainer.userId, f.owner.userId]);
    expect((await events(Number(mr.id))).at(-1)!.object_attributes.action).toBe("approved");
  });

  it("answers 401 to a second approval, to the author unless the project allows it, and on merged merge requests", async () => {
    const f = await mergeRequestFixture(t);
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    const mr = await f.create(f.developer);
    await t.client.ApproveMergeRequest({ actor: f.maintainer, ...f.ref(1) });
    const unauthorized = { status: 401, body: { message: "401 Unauthorized" } };
    expect(await failure(t.client.ApproveMergeRequest({ actor: f.maintainer, ...f.ref(1) }))).toEqual(unauthorized);
    expect(await failure(t.client.ApproveMergeRequest({ actor: f.developer, ...f.ref(1) }))).toEqual(unauthorized);
    expect((await t.client.GetMergeRequestApprovals({ actor: f.developer, ...f.ref(1) })).userCanApprove).toBe(false);
    await settings(f.project.id, { mergeRequestsAuthorApproval: true });
    expect((await t.client.GetMergeRequestApprovals({ actor: f.developer, ...f.ref(1) })).userCanApprove).toBe(true);
    expect((await t.client.ApproveMergeRequest({ actor: f.developer, ...f.ref(1) })).userHasApproved).toBe(true);
    await db().mergeRequest.update({ where: { id: Number(mr.id) }, data: { state: "merged" } });
    expect(await failure(t.client.ApproveMergeRequest({ actor: f.owner, ...f.ref(1) }))).toEqual(unauthorized);
    expect(await db().mergeRequestApproval.count({ where: { mergeRequestId: Number(mr.id) } })).toBe(2);
  });

  it("refuses committers where the project disables their approval", async () => {
    const f = await mergeRequestFixture(t);
    // A commit by the administrator (who owns the project) with their e-mail as committer.
    await t.svc.deps.repo.CommitFiles({
      diskPath: f.project.diskPath,
      context: { ...f.context, userEmail: "admin@example.com" },
      branch: "feature",
      startBranch: "main",
      commitMessage: "Add a",
      actions: [{ action: "create", filePath: "a.txt", content: Buffer.from("a") }],
    });
    await f.create(f.developer);
    await settings(f.project.id, { mergeRequestsDisableCommittersApproval: true });
    expect((await t.client.GetMergeRequestApprovals({ actor: t.admin, ...f.ref(1) })).userCanApprove).toBe(false);
    expect((await failure(t.client.ApproveMergeRequest({ actor: t.admin, ...f.ref(1) }))).status).toBe(401);
    expect((await t.client.ApproveMergeRequest({ actor: f.maintainer, ...f.ref(1) })).approved).toBe(true);
    await settings(f.project.id, { mergeRequestsDisableCommittersApproval: false });
    expect((await t.client.ApproveMergeRequest({ actor: t.admin, ...f.ref(1) })).approvedBy).toHaveLength(2);
  });

  it("answers 409 for a sha other than the source head, 403 to Reporters and non-members, 404 for unknown iids", async () => {
    const f = await mergeRequestFixture(t, { visibility: "public" });
    const head = await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    await f.create(f.developer);
    expect(await failure(t.client.ApproveMergeRequest({ actor: f.maintainer, ...f.ref(1), sha: "0".repeat(40) }))).toEqual({
      status: 409,
      body: { message: `SHA does not match HEAD of source branch: ${head}` },
    });
    const forbidden = { status: 403, body: { message: "403 Forbidden" } };
    expect(await failure(t.client.ApproveMergeRequest({ actor: f.reporter, ...f.ref(1) }))).toEqual(forbidden);
    expect(await failure(t.client.ApproveMergeRequest({ actor: f.outsider, ...f.ref(1) }))).toEqual(forbidden);
    expect(await failure(t.client.ApproveMergeRequest({ actor: t.anonymous, ...f.ref(1) }))).toEqual({ status: 401, body: { message: "401 Unauthorized" } });
    expect(await failure(t.client.ApproveMergeRequest({ actor: f.maintainer, ...f.ref(9) }))).toEqual({ status: 404, body: { message: "404 Not found" } });
    expect(await db().mergeRequestApproval.count({ where: { mergeRequest: { projectId: f.project.id } } })).toBe(0);
  });
});

describe("approvals and pushes", () => {
  it("resets approvals when the source branch moves (note, unapproved event), unless the project keeps them", async () => {
    const f = await mergeRequestFixture(t);
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    const mr = await f.create(f.developer, { reviewerIds: [f.maintainer.userId] });
    const id = Number(mr.id);
    await t.client.ApproveMergeRequest({ actor: f.maintainer, ...f.ref(1) });
    await f.commit("feature", { "b.txt": "b" });
    await waitFor(async () => ((await db().mergeRequestApproval.count({ where: { mergeRequestId: id } })) === 0 ? true : undefined));
    expect(await db().mergeRequestReviewer.findMany({ where: { mergeRequestId: id } })).toMatchObject([{ state: "unapproved" }]);
    const [approver] = (await t.identity.GetUsers({ actor: t.admin, ids: [f.maintainer.userId] })).users;
    const notes = await db().note.findMany({ where: { noteableType: "MergeRequest", noteableId: id, system: true }, orderBy: { id: "asc" } });
    expect(notes.map((n) => [n.body, n.authorId]).at(-1)).toEqual([`reset approvals from @${approver!.username} by pushing to the branch`, t.admin.userId]);
    expect((await events(id)).map((e) => e.object_attributes.action)).toEqual(["open", "approved", "unapproved", "update"]);
    expect(await t.client.GetMergeRequestApprovals({ actor: f.maintainer, ...f.ref(1) })).toMatchObject({ approved: false, userCanApprove: true });

    await settings(f.project.id, { resetApprovalsOnPush: false });
    await t.client.ApproveMergeRequest({ actor: f.maintainer, ...f.ref(1) });
    const third = await f.commit("feature", { "c.txt": "c" });
    await waitFor(async () => ((await db().mergeRequest.findUniqueOrThrow({ where: { id } })).headSha === third ? true : undefined));
    expect(await db().mergeRequestApproval.count({ where: { mergeRequestId: id } })).toBe(1);
  });
});
