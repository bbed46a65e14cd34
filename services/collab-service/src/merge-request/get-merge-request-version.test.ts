import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { mergeRequestFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_version");
});
afterAll(() => t?.close());

describe("GetMergeRequestVersion", () => {
  it("finds a version of the merge request by id and refuses another merge request's", async () => {
    const f = await mergeRequestFixture(t);
    const first = await f.commit("feature", { "a.txt": "a" }, { startBranch: "main" });
    const mr = await f.create(f.developer);
    const second = await f.commit("feature", { "b.txt": "b" });
    const latest = await waitFor(() =>
      t.svc.deps.prisma.mergeRequestDiff.findFirst({ where: { mergeRequestId: Number(mr.id), headCommitSha: second } }).then((d) => d ?? undefined),
    );
    const one = await t.client.GetMergeRequestVersion({ actor: f.reporter, ...f.ref(1), versionId: latest.id });
    expect(one).toMatchObject({
      id: latest.id,
      mergeRequestId: Number(mr.id),
      headCommitSha: second,
      commitShas: [second, first],
      realSize: "2",
      state: "collected",
    });

    await f.commit("other", { "o.txt": "o" }, { startBranch: "main" });
    const other = await f.create(f.developer, { sourceBranch: "other" });
    const otherVersion = await t.svc.deps.prisma.mergeRequestDiff.findFirstOrThrow({ where: { mergeRequestId: Number(other.id) } });
    for (const versionId of [otherVersion.id, 0, 2 ** 31]) {
      expect(await failure(t.client.GetMergeRequestVersion({ actor: f.reporter, ...f.ref(1), versionId }))).toEqual({
        status: 404,
        body: { message: "404 Not found" },
      });
    }
    expect(await failure(t.client.GetMergeRequestVersion({ actor: f.guest, ...f.ref(1), versionId: latest.id }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
  });
});
