import { status } from "@quarry/grpc";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { gitIn, gitOk, makeCommit, outboxPayloads, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { deleteMergeRequestRefs } from "./delete-merge-request-refs.ts";
import { writeMergeRequestRef } from "./write-merge-request-ref.ts";

let t: TestContext;
let repo: { diskPath: string; dir: string; projectId: number };
let main: string;
let feature: string;

beforeAll(async () => {
  t = await setUp("repo_delete_merge_request_refs");
});
afterAll(() => t?.close());

beforeEach(async () => {
  repo = await repositoryWith(t);
  main = makeCommit(repo.dir, { message: "Main\n" });
  feature = makeCommit(repo.dir, { message: "Feature\n", parents: [main] });
  gitIn(repo.dir, "update-ref", "refs/heads/main", main);
});

const write = (iid: number, kind: string, sha: string) => writeMergeRequestRef(t.deps)({ diskPath: repo.diskPath, iid, kind, sha, expectedOldSha: "" });
const refOf = (ref: string) => gitIn(repo.dir, "rev-parse", "--verify", ref);

describe("DeleteMergeRequestRefs", () => {
  it("removes head and merge refs of one merge request only; missing refs are no error", async () => {
    await write(1, "head", feature);
    await write(1, "merge", main);
    await write(2, "head", feature);
    expect(await deleteMergeRequestRefs(t.deps)({ diskPath: repo.diskPath, iid: 1 })).toEqual({
      deleted: ["refs/merge-requests/1/head", "refs/merge-requests/1/merge"],
    });
    expect(gitOk(repo.dir, "rev-parse", "--verify", "refs/merge-requests/1/head")).toBe(false);
    expect(gitOk(repo.dir, "rev-parse", "--verify", "refs/merge-requests/1/merge")).toBe(false);
    expect(refOf("refs/merge-requests/2/head")).toBe(feature);
    expect(await deleteMergeRequestRefs(t.deps)({ diskPath: repo.diskPath, iid: 1 })).toEqual({ deleted: [] });
    await expect(deleteMergeRequestRefs(t.deps)({ diskPath: "@hashed/no/ne/none.git", iid: 1 })).rejects.toMatchObject({ code: status.NOT_FOUND });
  });

  it("keeps branches and tags and publishes nothing; 400 for a bad iid", async () => {
    await write(3, "head", feature);
    await deleteMergeRequestRefs(t.deps)({ diskPath: repo.diskPath, iid: 3 });
    expect(gitIn(repo.dir, "for-each-ref", "--format=%(refname)")).toBe("refs/heads/main");
    expect(await outboxPayloads(t, repo.projectId)).toEqual([]);
    await expect(deleteMergeRequestRefs(t.deps)({ diskPath: repo.diskPath, iid: -1 })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      body: { error: "iid does not have a valid value" },
    });
  });
});
