import { Subjects } from "@quarry/bus";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { AUTO_MERGE_CANCELED_BODY, autoMergeEnabledBody, CANNOT_CANCEL_MESSAGE } from "./auto-merge.ts";
import { commit, mainHead, mergeRef, mergeRequestRow, PUSHER, type RepoProject, repoProject } from "./merge-merge-request-fixture.ts";
import { pipelineEvent } from "./pipelines-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_automerge");
});
afterAll(() => t?.close());

let nextPipeline = 5000;
const row = (id: number) => t.svc.deps.prisma.mergeRequest.findUniqueOrThrow({ where: { id } });
const notes = async (id: number) =>
  (await t.svc.deps.prisma.note.findMany({ where: { noteableType: "MergeRequest", noteableId: id, system: true }, orderBy: { id: "asc" } })).map((n) => n.body);

/** Publishes a pipeline status on the bus as ci-service would, and waits until collab recorded it. */
async function pipeline(p: RepoProject, id: number, ref: string, sha: string, status: string, second: number) {
  const updatedAt = `2026-11-26 05:10:${String(second).padStart(2, "0")} UTC`;
  await t.bus.publish(Subjects.pipeline, pipelineEvent({ id, projectId: p.id, sha, ref, status, updatedAt }));
  await waitFor(async () => (await t.svc.deps.prisma.ciPipeline.findUnique({ where: { id } }))?.status === status);
}

describe("auto-merge", () => {
  it("waits for a running head pipeline, survives its failure, and merges when it succeeds", async () => {
    const p = await repoProject(t);
    const head = await commit(t, p, "feature", { "a.txt": "a\n" }, "main");
    const mr = await mergeRequestRow(t, p, "feature");
    const id = nextPipeline++;
    await pipeline(p, id, "feature", head, "running", 1);

    const answer = await t.client.MergeMergeRequest({ ref: mergeRef(p, mr, t.admin), pusher: PUSHER, autoMerge: true, shouldRemoveSourceBranch: true });
    expect(answer).toMatchObject({
      state: "opened",
      mergeWhenPipelineSucceeds: true,
      mergeUserId: t.admin.userId,
      headPipelineId: id,
      detailedMergeStatus: "ci_still_running",
    });
    expect(await notes(mr.id)).toEqual([autoMergeEnabledBody(head)]);
    // Asked again: the params change, no second note.
    await t.client.MergeMergeRequest({ ref: mergeRef(p, mr, t.admin), pusher: PUSHER, autoMerge: true, shouldRemoveSourceBranch: true });
    expect(await notes(mr.id)).toHaveLength(1);
    // One merge_when_pipeline_succeeds notification (hook-service mails it), for the first request only.
    const told = (await t.svc.deps.prisma.outboxEvent.findMany({ where: { subject: Subjects.notification } }))
      .map((e) => e.payload as Record<string, unknown>)
      .filter((e) => (e.merge_request as { id?: number } | undefined)?.id === mr.id);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ object_kind: "notification", action: "merge_when_pipeline_succeeds", user_id: t.admin.userId, project_id: p.id });
    expect(told[0]?.merge_request).toMatchObject({ iid: mr.iid, source_branch: "feature", url: expect.stringContaining("/-/merge_requests/") });

    // A failed pipeline leaves auto-merge set (a retried job may still succeed).
    await pipeline(p, id, "feature", head, "failed", 2);
    expect(await row(mr.id)).toMatchObject({ state: "opened", mergeWhenPipelineSucceeds: true });
    await pipeline(p, id, "feature", head, "running", 3);
    await pipeline(p, id, "feature", head, "success", 4);
    const merged = await waitFor(async () => {
      const r = await row(mr.id);
      return r.state === "merged" ? r : null;
    });
    expect(merged).toMatchObject({ mergeUserId: t.admin.userId, shouldRemoveSourceBranch: true });
    expect((await mainHead(t, p)).parentIds[1]).toBe(head);
    // Removed as the stored params asked (right after the merge is recorded).
    const findFeature = () => t.svc.deps.repo.FindBranch({ diskPath: p.diskPath, name: "feature", defaultBranch: "main", projectId: p.id, accessLevel: 60 });
    await waitFor(
      async () =>
        (await findFeature().then(
          () => "exists",
          () => "gone",
        )) === "gone",
    );
  });

  it("merges at once without a pipeline, and refuses with 405 when the head pipeline failed", async () => {
    const p = await repoProject(t);
    await commit(t, p, "now", { "n.txt": "n\n" }, "main");
    const mr = await mergeRequestRow(t, p, "now");
    await t.client.MergeMergeRequest({ ref: mergeRef(p, mr, t.admin), pusher: PUSHER, autoMerge: true });
    expect((await row(mr.id)).state).toBe("merged");

    const red = await commit(t, p, "red", { "r.txt": "r\n" }, "main");
    const failed = await mergeRequestRow(t, p, "red");
    await pipeline(p, nextPipeline++, "red", red, "failed", 5);
    expect(await failure(t.client.MergeMergeRequest({ ref: mergeRef(p, failed, t.admin), pusher: PUSHER, autoMerge: true }))).toEqual({
      status: 405,
      body: { message: "405 Method Not Allowed" },
    });
    expect((await row(failed.id)).state).toBe("opened");
  });

  it("cancels with a note; GitLab's 406 error result when none is set; 401 for who may neither merge nor wrote it", async () => {
    const p = await repoProject(t);
    const head = await commit(t, p, "wait", { "w.txt": "w\n" }, "main");
    const mr = await mergeRequestRow(t, p, "wait");
    await pipeline(p, nextPipeline++, "wait", head, "pending", 6);
    await t.client.MergeMergeRequest({ ref: mergeRef(p, mr, t.admin), pusher: PUSHER, autoMerge: true });
    const outsider = await t.user();
    expect(await failure(t.client.CancelAutoMerge({ ref: mergeRef(p, mr, outsider) }))).toEqual({ status: 401, body: { message: "401 Unauthorized" } });
    expect(await t.client.CancelAutoMerge({ ref: mergeRef(p, mr, t.admin) })).toEqual({ status: "success", message: "", httpStatus: 0 });
    expect(await row(mr.id)).toMatchObject({ state: "opened", mergeWhenPipelineSucceeds: false, mergeUserId: null, autoMergeParams: null });
    expect(await notes(mr.id)).toEqual([autoMergeEnabledBody(head), AUTO_MERGE_CANCELED_BODY]);
    expect(await t.client.CancelAutoMerge({ ref: mergeRef(p, mr, t.admin) })).toEqual({ status: "error", message: CANNOT_CANCEL_MESSAGE, httpStatus: 406 });
  });
});
