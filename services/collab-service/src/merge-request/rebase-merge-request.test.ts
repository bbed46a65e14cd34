import { AccessLevel } from "@quarry/gitlab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { commit, mainHead, mergeRef, mergeRequestRow, PUSHER, repoProject } from "./merge-merge-request-fixture.ts";
import { REBASE_ERROR, REBASE_LOCK_MESSAGE, REBASE_LOCK_SPACE } from "./rebase-merge-request.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_rebase");
});
afterAll(() => t?.close());

const rebase = (ref: ReturnType<typeof mergeRef>) => t.client.RebaseMergeRequest({ ref, pusher: PUSHER, skipCi: false });

describe("RebaseMergeRequest", () => {
  it("replays the source branch onto the target's head before answering", async () => {
    const p = await repoProject(t);
    await commit(t, p, "topic", { "t.txt": "t\n" }, "main");
    const target = await commit(t, p, "main", { "m.txt": "m\n" });
    const mr = await mergeRequestRow(t, p, "topic");
    expect(await rebase(mergeRef(p, mr, t.admin))).toEqual({ rebaseInProgress: false });
    const rebased = await mainHead(t, p, "topic");
    expect(rebased.id).not.toBe(mr.headSha);
    expect(rebased.parentIds).toEqual([target]);
    expect((await t.svc.deps.prisma.mergeRequest.findUniqueOrThrow({ where: { id: mr.id } })).mergeError).toBeNull();
  });

  it("leaves GitLab's rebase error in merge_error on conflicts, and the branch as it was", async () => {
    const p = await repoProject(t);
    const head = await commit(t, p, "clash", { "same.txt": "mine\n" }, "main");
    await commit(t, p, "main", { "same.txt": "theirs\n" });
    const mr = await mergeRequestRow(t, p, "clash");
    expect(await rebase(mergeRef(p, mr, t.admin))).toEqual({ rebaseInProgress: false });
    expect((await t.svc.deps.prisma.mergeRequest.findUniqueOrThrow({ where: { id: mr.id } })).mergeError).toBe(REBASE_ERROR);
    expect((await mainHead(t, p, "clash")).id).toBe(head);
  });

  it("answers 403 to who may not push the source branch and 409 while another rebase runs", async () => {
    const p = await repoProject(t);
    await commit(t, p, "src", { "s.txt": "s\n" }, "main");
    const mr = await mergeRequestRow(t, p, "src");
    const reporter = await t.user();
    await t.member("project", p.id, reporter, AccessLevel.REPORTER);
    expect(await failure(rebase(mergeRef(p, mr, reporter)))).toEqual({ status: 403, body: { message: "403 Forbidden - Cannot push to source branch" } });
    await t.svc.deps.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${REBASE_LOCK_SPACE}::int, ${mr.id}::int)`;
      expect(await failure(rebase(mergeRef(p, mr, t.admin)))).toEqual({ status: 409, body: { message: REBASE_LOCK_MESSAGE } });
    });
  });
});
