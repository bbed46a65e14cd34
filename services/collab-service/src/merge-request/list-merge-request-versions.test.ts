import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { mergeRequestFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_versions");
});
afterAll(() => t?.close());

describe("ListMergeRequestVersions", () => {
  it("lists versions newest first with pages, for readers of merge requests only", async () => {
    const f = await mergeRequestFixture(t);
    const first = await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    await f.create(f.developer);
    const second = await f.commit("feature", { "b.txt": "b" });
    await waitFor(async () => ((await t.svc.deps.prisma.mergeRequestDiff.count()) === 2 ? true : undefined));
    const list = await t.client.ListMergeRequestVersions({ actor: f.reporter, ...f.ref(1), page: { page: 1, perPage: 1 } });
    expect(list.pageInfo).toMatchObject({ total: 2, page: 1, perPage: 1 });
    expect(list.versions.map((v) => v.headCommitSha)).toEqual([second]);
    const page2 = await t.client.ListMergeRequestVersions({ actor: f.reporter, ...f.ref(1), page: { page: 2, perPage: 1 } });
    expect(page2.versions[0]).toMatchObject({ headCommitSha: first, commitShas: [first], realSize: "1", state: "collected" });
    expect(await failure(t.client.ListMergeRequestVersions({ actor: f.guest, ...f.ref(1) }))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
  });
});
