import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { mergeRequestFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_by_commit");
});
afterAll(() => t?.close());

describe("ListCommitMergeRequests", () => {
  it("finds the merge requests with the commit in a version, or merged as it, newest first, by state", async () => {
    const f = await mergeRequestFixture(t);
    const shared = await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    await f.commit("feature2", { "b.txt": "b" }, { startBranch: "feature" });
    const one = await f.create(f.developer);
    const two = await f.create(f.developer, { sourceBranch: "feature2" });
    const list = async (sha: string, state = "") =>
      (await t.client.ListCommitMergeRequests({ actor: f.reporter, project: String(f.project.id), sha, state })).mergeRequests.map((m) => Number(m.iid));
    expect(await list(shared)).toEqual([Number(two.iid), Number(one.iid)]);
    await t.svc.deps.prisma.mergeRequest.update({ where: { id: Number(one.id) }, data: { state: "merged", mergeCommitSha: "c".repeat(40) } });
    expect(await list(shared, "merged")).toEqual([1]);
    expect(await list("c".repeat(40))).toEqual([1]);
    expect(await list("d".repeat(40))).toEqual([]);
    expect(await failure(t.client.ListCommitMergeRequests({ actor: f.guest, project: String(f.project.id), sha: shared, state: "" }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
  });
});
