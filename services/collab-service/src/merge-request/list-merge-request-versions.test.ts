import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { mergeRequestFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_versions");
});
afterAll(() => t?.close());

describe("ListMergeRequestVersions and GetMergeRequestVersion", () => {
  it("lists versions newest first with pages, finds one by id, and refuses another merge request's version", async () => {
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
    const one = await t.client.GetMergeRequestVersion({ actor: f.reporter, ...f.ref(1), versionId: list.versions[0]!.id });
    expect(one).toMatchObject({ headCommitSha: second, commitShas: [second, first], realSize: "2" });

    await f.commit("other", { "o.txt": "o" }, { startBranch: "main" });
    const other = await f.create(f.developer, { sourceBranch: "other" });
    const otherVersion = await t.client.ListMergeRequestVersions({ actor: f.reporter, ...f.ref(other.iid) });
    expect(await failure(t.client.GetMergeRequestVersion({ actor: f.reporter, ...f.ref(1), versionId: otherVersion.versions[0]!.id }))).toEqual({
      status: 404,
      body: { message: "404 Not found" },
    });
    expect(await failure(t.client.ListMergeRequestVersions({ actor: f.guest, ...f.ref(1) }))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
  });
});
