import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { mergeRequestFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_create");
});
afterAll(() => t?.close());

describe("CreateMergeRequest", () => {
  it("records the first diff version, the head ref, labels, assignees, reviewers, their notes and the open event", async () => {
    const f = await mergeRequestFixture(t);
    const first = await f.commit("feature", { "a.txt": "a\n" }, { startBranch: "main", message: "Add a" });
    const head = await f.commit("feature", { "b.txt": "b\n" }, { message: "Add b\n\nCloses #3" });
    const milestone = await t.client.CreateMilestone({ actor: t.admin, parent: { project: String(f.project.id) }, title: "v1" });
    const mr = await f.create(f.developer, {
      title: "Draft: Add a and b",
      description: "Adds two files",
      labels: ["backend", "ui"],
      milestoneId: milestone.id,
      assigneeIds: [f.maintainer.userId, f.developer.userId],
      reviewerIds: [f.owner.userId],
      squash: true,
      removeSourceBranch: true,
    });
    expect(mr).toMatchObject({
      iid: 1,
      projectId: f.project.id,
      projectPath: f.project.path,
      title: "Draft: Add a and b",
      state: "opened",
      draft: true,
      authorId: f.developer.userId,
      assigneeIds: [f.maintainer.userId, f.developer.userId],
      reviewerIds: [f.owner.userId],
      sourceBranch: "feature",
      targetBranch: "main",
      squash: true,
      forceRemoveSourceBranch: true,
      // Reading it runs the git check (helper D's mergeStatusFor): a clean merge.
      mergeStatus: "can_be_merged",
      detailedMergeStatus: "draft_status",
      sha: head,
      changesCount: "2",
      milestone: { title: "v1" },
    });
    expect(mr.labels.map((l) => l.name)).toEqual(["backend", "ui"]);
    expect(mr.preparedAt).toBeTruthy();
    const main = await t.svc.deps.repo.FindBranch({
      diskPath: f.project.diskPath,
      name: "main",
      defaultBranch: "main",
      projectId: f.project.id,
      accessLevel: 0,
    });
    expect(mr.diffRefs).toEqual({ baseSha: main.commit!.id, headSha: head, startSha: main.commit!.id });

    const db = t.svc.deps.prisma;
    const diffs = await db.mergeRequestDiff.findMany({ where: { mergeRequestId: Number(mr.id) } });
    expect(diffs).toHaveLength(1);
    expect(diffs[0]).toMatchObject({ headCommitSha: head, commitShas: [head, first], state: "collected", realSize: "2" });
    const ref = await t.svc.deps.repo.FindCommit({ diskPath: f.project.diskPath, revision: "refs/merge-requests/1/head" });
    expect(ref.commit!.id).toBe(head);

    const notes = await db.note.findMany({ where: { noteableType: "MergeRequest", noteableId: Number(mr.id) }, orderBy: { id: "asc" } });
    const usernames = await t.identity.GetUsers({ actor: t.admin, ids: [f.maintainer.userId, f.developer.userId, f.owner.userId] });
    const name = (id: number) => usernames.users.find((u) => Number(u.id) === id)!.username;
    expect(notes.map((n) => [n.body, n.system])).toEqual([
      [`assigned to @${name(f.maintainer.userId)} and @${name(f.developer.userId)}`, true],
      [`requested review from @${name(f.owner.userId)}`, true],
    ]);
    expect(await db.resourceLabelEvent.count({ where: { mergeRequestId: Number(mr.id), action: "add" } })).toBe(2);
    expect(await db.resourceMilestoneEvent.count({ where: { mergeRequestId: Number(mr.id), action: "add" } })).toBe(1);

    const events = await db.outboxEvent.findMany({ where: { subject: "quarry.collab.merge_request" } });
    // biome-ignore lint/suspicious/noExplicitAny: the event's JSON is read freely.
    const open = events.map((e) => e.payload as Record<string, any>).find((p) => p.object_attributes.id === Number(mr.id));
    expect(open).toMatchObject({
      object_kind: "merge_request",
      user_id: f.developer.userId,
      project_id: f.project.id,
      object_attributes: {
        action: "open",
        iid: 1,
        source_branch: "feature",
        target_branch: "main",
        draft: true,
        state: "opened",
        url: `/${f.project.path}/-/merge_requests/1`,
      },
      assignee_ids: [f.maintainer.userId, f.developer.userId],
      reviewer_ids: [f.owner.userId],
      ci: { head_sha: head, diff_base_sha: main.commit!.id, title: "Draft: Add a and b", labels: ["backend", "ui"], milestone_title: "v1", draft: true },
    });
    expect(open!.object_attributes.last_commit).toMatchObject({ id: head, title: "Add b" });
    expect(open!.ci.assignee_usernames).toEqual([name(f.maintainer.userId), name(f.developer.userId)]);
  });

  it("hands out iids in order under concurrent creation and refuses a second open merge request for the same branches", async () => {
    const f = await mergeRequestFixture(t);
    for (const b of ["b1", "b2", "b3", "b4"]) await f.commit(b, { [`${b}.txt`]: b }, { startBranch: "main" });
    const created = await Promise.all(["b1", "b2", "b3", "b4"].map((b) => f.create(f.developer, { sourceBranch: b, title: b })));
    expect(created.map((m) => Number(m.iid)).sort()).toEqual([1, 2, 3, 4]);
    expect(await failure(f.create(f.maintainer, { sourceBranch: "b2" }))).toEqual({
      status: 409,
      body: { message: [`Another open merge request already exists for this source branch: !${created[1]!.iid}`] },
    });
    // Another target is another pair.
    await f.commit("other", { "o.txt": "o" }, { startBranch: "main" });
    expect((await f.create(f.developer, { sourceBranch: "b2", targetBranch: "other" })).iid).toBe(5);
  });

  it("answers GitLab's errors: roles, same branch, missing branches, blank title, another target project", async () => {
    const f = await mergeRequestFixture(t);
    await f.commit("feature", { "x.txt": "x" }, { startBranch: "main" });
    for (const actor of [f.guest, f.reporter]) expect(await failure(f.create(actor))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    expect(await failure(f.create(f.outsider))).toEqual({ status: 404, body: { message: "404 Project Not Found" } });
    expect(await failure(f.create(f.developer, { sourceBranch: "main" }))).toEqual({
      status: 422,
      body: { message: ["You can't use same project/branch for source and target"] },
    });
    expect(await failure(f.create(f.developer, { sourceBranch: "nope" }))).toEqual({ status: 400, body: { message: { source_branch: ["does not exist"] } } });
    expect(await failure(f.create(f.developer, { sourceBranch: "nope", targetBranch: "gone" }))).toEqual({
      status: 400,
      body: { message: { source_branch: ["does not exist"], target_branch: ["does not exist"] } },
    });
    expect(await failure(f.create(f.developer, { title: "  " }))).toEqual({ status: 400, body: { message: { title: ["can't be blank"] } } });
    expect(await failure(f.create(f.developer, { description: "x".repeat(1_048_577) }))).toEqual({
      status: 400,
      body: { message: { description: ["is too long (maximum is 1048576 characters)"] } },
    });
    const other = await t.project();
    expect(await failure(f.create(f.developer, { targetProjectId: other.id }))).toEqual({
      status: 422,
      body: { message: ["Source project is not a fork of the target project"] },
    });
    const hidden = await t.project({ visibility: "private" });
    expect(await failure(f.create(f.developer, { targetProjectId: hidden.id }))).toEqual({ status: 404, body: { message: "404 Not found" } });
    // Nothing was written by the refusals.
    expect(await t.svc.deps.prisma.mergeRequest.count({ where: { projectId: f.project.id } })).toBe(0);
    // The project's own id is the default.
    expect((await f.create(f.developer, { targetProjectId: f.project.id })).iid).toBe(1);
  });

  it("keeps the assignees who can read the project and drops unknown users", async () => {
    const f = await mergeRequestFixture(t, { visibility: "public" });
    await f.commit("feature", { "y.txt": "y" }, { startBranch: "main" });
    const mr = await f.create(f.developer, { labels: ["x"], assigneeIds: [f.outsider.userId, 999999] });
    // The outsider can read the public project; an unknown user is dropped.
    expect(mr.assigneeIds).toEqual([f.outsider.userId]);
    expect(mr.labels.map((l) => l.name)).toEqual(["x"]);
  });
});
