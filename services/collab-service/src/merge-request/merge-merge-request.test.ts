import { AccessLevel } from "@quarry/gitlab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { commit, mainHead, mergeRef, mergeRequestRow, PUSHER, repoProject } from "./merge-merge-request-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_merge");
});
afterAll(() => t?.close());

const merge = (ref: ReturnType<typeof mergeRef>, more: Record<string, unknown> = {}) => t.client.MergeMergeRequest({ ref, pusher: PUSHER, ...more });

describe("MergeMergeRequest", () => {
  it("writes a merge commit with GitLab's default message and records the merge", async () => {
    const p = await repoProject(t);
    const head = await commit(t, p, "feature", { "a.txt": "a\n" }, "main");
    const before = await mainHead(t, p);
    const mr = await mergeRequestRow(t, p, "feature", { title: "Add a", description: "Adds a." });
    const answer = await merge(mergeRef(p, mr, t.admin));
    expect(answer).toMatchObject({ state: "merged", mergeUserId: t.admin.userId, detailedMergeStatus: "not_open" });

    const after = await mainHead(t, p);
    expect(after.parentIds).toEqual([before.id, head]);
    expect(after.message).toBe(`Merge branch 'feature' into 'main'\n\nAdd a\n\nSee merge request ${p.path}!${mr.iid}`);
    const row = await t.svc.deps.prisma.mergeRequest.findUniqueOrThrow({ where: { id: mr.id } });
    expect(row).toMatchObject({
      state: "merged",
      mergeUserId: t.admin.userId,
      mergeCommitSha: after.id,
      mergedCommitSha: after.id,
      squashCommitSha: null,
      mergeError: null,
      shouldRemoveSourceBranch: null,
    });
    expect(row.mergedAt).toBeInstanceOf(Date);
    const events = await t.svc.deps.prisma.resourceStateEvent.findMany({ where: { mergeRequestId: mr.id } });
    expect(events.map((e) => [e.state, e.userId])).toEqual([["merged", t.admin.userId]]);
    // The merge_request webhook event with action "merge", in the merge's transaction.
    const hooks = await t.svc.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.collab.merge_request" } });
    const merged = hooks.map((h) => h.payload as { object_attributes: { id: number; action: string; state: string; merge_commit_sha: string } });
    expect(
      merged
        .filter((h) => h.object_attributes.id === mr.id)
        .map((h) => [h.object_attributes.action, h.object_attributes.state, h.object_attributes.merge_commit_sha]),
    ).toEqual([["merge", "merged", after.id]]);
    // The source branch stays unless asked.
    expect((await mainHead(t, p, "feature")).id).toBe(head);
  });

  it("answers 409 with the head when sha is stale, before anything else", async () => {
    const p = await repoProject(t);
    await commit(t, p, "feature", { "a.txt": "a\n" }, "main");
    const mr = await mergeRequestRow(t, p, "feature");
    expect(await failure(merge(mergeRef(p, mr, t.admin), { sha: "0".repeat(40) }))).toEqual({
      status: 409,
      body: { message: `SHA does not match HEAD of source branch: ${mr.headSha}` },
    });
    expect((await t.svc.deps.prisma.mergeRequest.findUniqueOrThrow({ where: { id: mr.id } })).state).toBe("opened");
    await merge(mergeRef(p, mr, t.admin), { sha: mr.headSha });
    expect((await t.svc.deps.prisma.mergeRequest.findUniqueOrThrow({ where: { id: mr.id } })).state).toBe("merged");
  });

  it("squashes with squash_commit_message and removes the source branch when asked", async () => {
    const p = await repoProject(t);
    await commit(t, p, "topic", { "a.txt": "a\n" }, "main");
    await commit(t, p, "topic", { "b.txt": "b\n" });
    const mr = await mergeRequestRow(t, p, "topic", { title: "Two files" });
    await merge(mergeRef(p, mr, t.admin), { squash: true, squashCommitMessage: "One commit\n", shouldRemoveSourceBranch: true });
    const row = await t.svc.deps.prisma.mergeRequest.findUniqueOrThrow({ where: { id: mr.id } });
    expect(row).toMatchObject({ state: "merged", squash: true, shouldRemoveSourceBranch: true });
    expect(row.squashCommitSha).toMatch(/^[0-9a-f]{40}$/);
    const head = await mainHead(t, p);
    expect(head.parentIds[1]).toBe(row.squashCommitSha);
    const squashed = await t.svc.deps.repo.FindCommit({ diskPath: p.diskPath, revision: row.squashCommitSha! });
    expect(squashed.commit?.message).toBe("One commit\n");
    expect(
      await failure(t.svc.deps.repo.FindBranch({ diskPath: p.diskPath, name: "topic", defaultBranch: "main", projectId: p.id, accessLevel: 60 })),
    ).toMatchObject({
      status: 404,
    });
  });

  it("refuses conflicts with 405, leaving the merge request open and marked as conflicting", async () => {
    const p = await repoProject(t);
    await commit(t, p, "clash", { "same.txt": "one\n" }, "main");
    await commit(t, p, "main", { "same.txt": "two\n" });
    const mr = await mergeRequestRow(t, p, "clash");
    expect(await failure(merge(mergeRef(p, mr, t.admin)))).toEqual({ status: 405, body: { message: "405 Method Not Allowed" } });
    const row = await t.svc.deps.prisma.mergeRequest.findUniqueOrThrow({ where: { id: mr.id } });
    expect(row).toMatchObject({ state: "opened", mergeStatus: "cannot_be_merged" });
  });

  it("answers 401 to members who may not merge into the protected target, and lets a merge rule through", async () => {
    const p = await repoProject(t);
    await commit(t, p, "dev", { "d.txt": "d\n" }, "main");
    const mr = await mergeRequestRow(t, p, "dev");
    const [developer, reporter] = [await t.user(), await t.user()];
    await t.member("project", p.id, developer, AccessLevel.DEVELOPER);
    await t.member("project", p.id, reporter, AccessLevel.REPORTER);
    // main is fully protected by default (Maintainers push and merge).
    expect(await failure(merge(mergeRef(p, mr, developer)))).toEqual({ status: 401, body: { message: "401 Unauthorized" } });
    expect(await failure(merge(mergeRef(p, mr, reporter)))).toEqual({ status: 401, body: { message: "401 Unauthorized" } });
    await t.svc.deps.repo.UpdateProtectedBranch({ projectId: p.id, name: "main", mergeAccessLevel: AccessLevel.DEVELOPER });
    await merge(mergeRef(p, mr, developer));
    expect((await t.svc.deps.prisma.mergeRequest.findUniqueOrThrow({ where: { id: mr.id } })).mergeUserId).toBe(developer.userId);
  });

  it("refuses closed, draft and unknown merge requests as GitLab does", async () => {
    const p = await repoProject(t);
    await commit(t, p, "x", { "x.txt": "x\n" }, "main");
    const draft = await mergeRequestRow(t, p, "x", { draft: true, title: "Draft: x" });
    expect(await failure(merge(mergeRef(p, draft, t.admin)))).toEqual({ status: 405, body: { message: "405 Method Not Allowed" } });
    const closed = await mergeRequestRow(t, p, "x", { state: "closed" });
    expect(await failure(merge(mergeRef(p, closed, t.admin)))).toEqual({ status: 405, body: { message: "405 Method Not Allowed" } });
    expect(await failure(merge(mergeRef(p, { iid: 999_999 }, t.admin)))).toEqual({ status: 404, body: { message: "404 Not found" } });
  });

  it("lets exactly one of two racing merges through; the other gets 405", async () => {
    const p = await repoProject(t);
    await commit(t, p, "race", { "r.txt": "r\n" }, "main");
    const mr = await mergeRequestRow(t, p, "race");
    const results = await Promise.allSettled([merge(mergeRef(p, mr, t.admin)), merge(mergeRef(p, mr, t.admin))]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(await failure(Promise.reject(lost.reason))).toMatchObject({ status: 405 });
    const head = await mainHead(t, p);
    expect(head.parentIds).toHaveLength(2);
    expect(await t.svc.deps.prisma.resourceStateEvent.count({ where: { mergeRequestId: mr.id } })).toBe(1);
  });

  it("closes the issues the description closes, with a state event and the issue webhook", async () => {
    const p = await repoProject(t);
    const issue = await t.client.CreateIssue({ actor: t.admin, project: String(p.id), title: "Bug" });
    const other = await t.client.CreateIssue({ actor: t.admin, project: String(p.id), title: "Unrelated" });
    await commit(t, p, "fix", { "f.txt": "f\n" }, "main");
    const mr = await mergeRequestRow(t, p, "fix", { title: "Fix it", description: `Closes #${issue.iid}, mentions #${other.iid}` });
    await merge(mergeRef(p, mr, t.admin));
    const closed = await t.svc.deps.prisma.issue.findUniqueOrThrow({ where: { id: Number(issue.id) } });
    expect(closed).toMatchObject({ state: "closed", closedById: t.admin.userId });
    expect((await t.svc.deps.prisma.issue.findUniqueOrThrow({ where: { id: Number(other.id) } })).state).toBe("opened");
    const stateEvents = await t.svc.deps.prisma.resourceStateEvent.findMany({ where: { issueId: Number(issue.id) } });
    expect(stateEvents.map((e) => e.state)).toEqual(["closed"]);
    const hooks = await t.svc.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.collab.issue" } });
    expect(
      hooks.some(
        (h) =>
          (h.payload as { object_attributes: { id: number; action: string } }).object_attributes.id === Number(issue.id) &&
          (h.payload as { object_attributes: { action: string } }).object_attributes.action === "close",
      ),
    ).toBe(true);
    expect((await mainHead(t, p)).message).toContain(`Closes #${issue.iid}\n\nSee merge request`);

    // Only merges into the default branch close issues.
    const third = await t.client.CreateIssue({ actor: t.admin, project: String(p.id), title: "Later" });
    await commit(t, p, "release", { "r.txt": "r\n" }, "main");
    await commit(t, p, "fix2", { "g.txt": "g\n" }, "main");
    const side = await mergeRequestRow(t, p, "fix2", { targetBranch: "release", description: `Closes #${third.iid}` });
    await merge(mergeRef(p, side, t.admin));
    expect((await t.svc.deps.prisma.issue.findUniqueOrThrow({ where: { id: Number(third.id) } })).state).toBe("opened");
  });
});
