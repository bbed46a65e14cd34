import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { mergeRequestFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_update");
});
afterAll(() => t?.close());

const notesOf = async (id: number | string) =>
  (await t.svc.deps.prisma.note.findMany({ where: { noteableType: "MergeRequest", noteableId: Number(id) }, orderBy: { id: "asc" } })).map((n) => n.body);

const eventsOf = async (id: number | string) =>
  (await t.svc.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.collab.merge_request" }, orderBy: { id: "asc" } }))
    // biome-ignore lint/suspicious/noExplicitAny: the event's JSON is read freely.
    .map((e) => e.payload as Record<string, any>)
    .filter((p) => p.object_attributes.id === Number(id));

describe("UpdateMergeRequest", () => {
  it("marks drafts and ready with notes, notes title, description and lock changes, and sends update events with changes", async () => {
    const f = await mergeRequestFixture(t);
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    const mr = await f.create(f.developer, { title: "Add a" });
    const draft = await t.client.UpdateMergeRequest({ actor: f.developer, ...f.ref(1), title: "[Draft] Add a" });
    expect(draft).toMatchObject({ title: "[Draft] Add a", draft: true, detailedMergeStatus: "draft_status" });
    const ready = await t.client.UpdateMergeRequest({ actor: f.developer, ...f.ref(1), title: "Add the a file" });
    expect(ready.draft).toBe(false);
    await t.client.UpdateMergeRequest({ actor: f.developer, ...f.ref(1), title: "draft: Add the a file" });
    await t.client.UpdateMergeRequest({ actor: f.developer, ...f.ref(1), description: "Now described", discussionLocked: true });
    expect(await notesOf(mr.id)).toEqual([
      "marked this merge request as **draft**",
      "marked this merge request as **ready**",
      // GitLab diffs the whole titles, prefix included.
      "changed title from **{-[Draft] Add a-}** to **{+Add the a file+}**",
      "marked this merge request as **draft**",
      "changed the description",
      "locked the discussion in this merge request",
    ]);
    const events = await eventsOf(mr.id);
    expect(events.map((e) => e.object_attributes.action)).toEqual(["open", "update", "update", "update", "update"]);
    expect(events[1]!.changes).toMatchObject({ title: { previous: "Add a", current: "[Draft] Add a" }, draft: { previous: false, current: true } });
    expect(events[4]!.changes).toMatchObject({ description: { previous: null, current: "Now described" } });
    expect(await failure(t.client.UpdateMergeRequest({ actor: f.developer, ...f.ref(1), description: "x".repeat(1_048_577) }))).toMatchObject({ status: 400 });
    // A request that changes nothing writes nothing.
    await t.client.UpdateMergeRequest({ actor: f.developer, ...f.ref(1), description: "Now described" });
    expect(await eventsOf(mr.id)).toHaveLength(5);
  });

  it("changes labels, milestone, assignees and reviewers for Developers, with resource events and notes; ignores them for the author below Developer", async () => {
    const f = await mergeRequestFixture(t, { visibility: "public" });
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    const mr = await f.create(f.developer, { labels: ["one"], reviewerIds: [f.owner.userId] });
    const milestone = await t.client.CreateMilestone({ actor: t.admin, parent: { project: String(f.project.id) }, title: "m" });
    const updated = await t.client.UpdateMergeRequest({
      actor: f.maintainer,
      ...f.ref(1),
      addLabels: ["two"],
      removeLabels: ["one", "unknown"],
      milestoneId: milestone.id,
      setAssignees: true,
      assigneeIds: [f.developer.userId],
      setReviewers: true,
      reviewerIds: [f.maintainer.userId],
    });
    expect(updated).toMatchObject({ assigneeIds: [f.developer.userId], reviewerIds: [f.maintainer.userId], milestone: { title: "m" } });
    expect(updated.labels.map((l) => l.name)).toEqual(["two"]);
    const db = t.svc.deps.prisma;
    expect(await db.resourceLabelEvent.findMany({ where: { mergeRequestId: Number(mr.id) }, select: { action: true }, orderBy: { id: "asc" } })).toEqual([
      { action: "add" },
      { action: "add" },
      { action: "remove" },
    ]);
    expect(await db.resourceMilestoneEvent.count({ where: { mergeRequestId: Number(mr.id) } })).toBe(1);
    const names = new Map(
      (await t.identity.GetUsers({ actor: t.admin, ids: [f.developer.userId, f.owner.userId, f.maintainer.userId] })).users.map((u) => [
        Number(u.id),
        u.username,
      ]),
    );
    const notes = await notesOf(mr.id);
    expect(notes.slice(-2)).toEqual([
      `assigned to @${names.get(f.developer.userId)}`,
      `requested review from @${names.get(f.maintainer.userId)} and removed review request for @${names.get(f.owner.userId)}`,
    ]);
    const update = (await eventsOf(mr.id)).at(-1)!;
    expect(update.changes).toMatchObject({
      assignees: { previous: [], current: [f.developer.userId] },
      reviewers: { previous: [f.owner.userId], current: [f.maintainer.userId] },
    });
    expect(update.changes.labels.current.map((l: { title: string }) => l.title)).toEqual(["two"]);

    // An outsider author (public project) may edit their merge request's title but not its metadata.
    await f.commit("outside", { "o.txt": "o" }, { startBranch: "main" });
    const own = await f.create(f.developer, { sourceBranch: "outside" });
    await t.svc.deps.prisma.mergeRequest.update({ where: { id: Number(own.id) }, data: { authorId: f.outsider.userId } });
    const edited = await t.client.UpdateMergeRequest({
      actor: f.outsider,
      ...f.ref(own.iid),
      title: "Mine",
      setLabels: true,
      labels: ["x"],
      milestoneId: milestone.id,
    });
    expect(edited).toMatchObject({ title: "Mine", labels: [] });
    expect(edited.milestone).toBeFalsy();
    expect(await failure(t.client.UpdateMergeRequest({ actor: f.guest, ...f.ref(own.iid), title: "No" }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
  });

  it("closes and reopens with state events, refuses to reopen over another open merge request, and retargets with a new diff version", async () => {
    const f = await mergeRequestFixture(t);
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    const mr = await f.create(f.developer);
    const closed = await t.client.UpdateMergeRequest({ actor: f.developer, ...f.ref(1), stateEvent: "close" });
    expect(closed).toMatchObject({ state: "closed", closedById: f.developer.userId, detailedMergeStatus: "not_open" });
    expect(closed.closedAt).toBeTruthy();
    await f.create(f.developer, { title: "again" });
    expect(await failure(t.client.UpdateMergeRequest({ actor: f.developer, ...f.ref(1), stateEvent: "reopen" }))).toEqual({
      status: 409,
      body: { message: ["Another open merge request already exists for this source branch: !2"] },
    });
    await t.client.UpdateMergeRequest({ actor: f.developer, ...f.ref(2), stateEvent: "close" });
    const reopened = await t.client.UpdateMergeRequest({ actor: f.developer, ...f.ref(1), stateEvent: "reopen" });
    expect(reopened).toMatchObject({ state: "opened", closedById: 0 });
    expect(reopened.closedAt).toBeFalsy();
    const db = t.svc.deps.prisma;
    expect((await db.resourceStateEvent.findMany({ where: { mergeRequestId: Number(mr.id) }, orderBy: { id: "asc" } })).map((e) => e.state)).toEqual([
      "closed",
      "reopened",
    ]);
    expect((await eventsOf(mr.id)).map((e) => e.object_attributes.action)).toEqual(["open", "close", "reopen"]);

    await f.commit("stable", { "s.txt": "s" }, { startBranch: "main" });
    const retargeted = await t.client.UpdateMergeRequest({ actor: f.developer, ...f.ref(1), targetBranch: "stable" });
    expect(retargeted.targetBranch).toBe("stable");
    const stable = await t.svc.deps.repo.FindBranch({
      diskPath: f.project.diskPath,
      name: "stable",
      defaultBranch: "main",
      projectId: f.project.id,
      accessLevel: 0,
    });
    expect(retargeted.diffRefs!.startSha).toBe(stable.commit!.id);
    expect((await notesOf(mr.id)).at(-1)).toBe("changed target branch from `main` to `stable`");
    expect(await failure(t.client.UpdateMergeRequest({ actor: f.developer, ...f.ref(1), targetBranch: "missing" }))).toEqual({
      status: 400,
      body: { message: { target_branch: ["does not exist"] } },
    });
    expect(await failure(t.client.UpdateMergeRequest({ actor: f.developer, ...f.ref(1), targetBranch: "feature" }))).toEqual({
      status: 409,
      body: { message: ["You can't use same project/branch for source and target"] },
    });
    // A merged merge request stays merged.
    await db.mergeRequest.update({ where: { id: Number(mr.id) }, data: { state: "merged" } });
    expect((await t.client.UpdateMergeRequest({ actor: f.developer, ...f.ref(1), stateEvent: "close" })).state).toBe("merged");
  });
});
