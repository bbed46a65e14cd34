import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { mergeRequestFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_approvals");
});
afterAll(() => t?.close());

describe("GetMergeRequestApprovals", () => {
  it("answers the approval state as each caller sees it, anonymous readers of a public project included", async () => {
    const f = await mergeRequestFixture(t, { visibility: "public" });
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    await f.create(f.developer, { title: "Approve me" });
    const empty = await t.client.GetMergeRequestApprovals({ actor: f.maintainer, ...f.ref(1) });
    expect(empty).toMatchObject({
      approvedBy: [],
      approvalsRequired: 0,
      approvalsLeft: 0,
      approved: false,
      userHasApproved: false,
      userCanApprove: true,
      mergeRequest: { iid: 1, title: "Approve me", state: "opened" },
    });
    await t.client.ApproveMergeRequest({ actor: f.maintainer, ...f.ref(1) });
    expect(await t.client.GetMergeRequestApprovals({ actor: f.maintainer, ...f.ref(1) })).toMatchObject({
      approved: true,
      userHasApproved: true,
      userCanApprove: false,
    });
    expect(await t.client.GetMergeRequestApprovals({ actor: f.owner, ...f.ref(1) })).toMatchObject({ userHasApproved: false, userCanApprove: true });
    // Readers who may not approve: the author (by default), Reporters, non-members, anonymous callers.
    for (const actor of [f.developer, f.reporter, f.outsider, t.anonymous]) {
      expect(await t.client.GetMergeRequestApprovals({ actor, ...f.ref(1) })).toMatchObject({ approved: true, userCanApprove: false });
    }
  });

  it("answers 404 Not found for unknown iids and 403 to Guests of a private project", async () => {
    const f = await mergeRequestFixture(t);
    await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    await f.create(f.developer);
    expect(await failure(t.client.GetMergeRequestApprovals({ actor: f.maintainer, ...f.ref(2) }))).toEqual({ status: 404, body: { message: "404 Not found" } });
    expect(await failure(t.client.GetMergeRequestApprovals({ actor: f.guest, ...f.ref(1) }))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
  });
});
