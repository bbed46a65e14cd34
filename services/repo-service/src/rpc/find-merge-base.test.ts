import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, makeCommit, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { readCommit } from "../git/commits.ts";
import { findMergeBase } from "./find-merge-base.ts";

let t: TestContext;
let find: ReturnType<typeof findMergeBase>;
let repo: { diskPath: string; dir: string };
let base: string;
let left: string;
let right: string;
let third: string;

beforeAll(async () => {
  t = await setUp("repo_merge_base");
  find = findMergeBase(t.deps);
  repo = await repositoryWith(t);
  const root = makeCommit(repo.dir, { message: "Root\n" });
  base = makeCommit(repo.dir, { message: "Base\n", parents: [root] });
  left = makeCommit(repo.dir, { message: "Left\n", parents: [base] });
  right = makeCommit(repo.dir, { message: "Right\n", parents: [base] });
  third = makeCommit(repo.dir, { message: "Third\n", parents: [root] });
  gitIn(repo.dir, "update-ref", "refs/heads/main", left);
  gitIn(repo.dir, "update-ref", "refs/heads/feature", right);
  gitIn(repo.dir, "update-ref", "refs/heads/orphan", makeCommit(repo.dir, { message: "Orphan\n" }));
  gitIn(repo.dir, "tag", "v1", third);
});
afterAll(() => t?.close());

describe("FindMergeBase", () => {
  it("finds the common ancestor of branches, tags and shas", async () => {
    expect(await find({ diskPath: repo.diskPath, refs: ["main", "feature"] })).toEqual(await readCommit(repo.dir, base));
    expect((await find({ diskPath: repo.diskPath, refs: [left, "feature", "v1"] })).id).toBe(gitIn(repo.dir, "merge-base", left, right, third));
  });

  it("refuses fewer than two refs", async () => {
    await expect(find({ diskPath: repo.diskPath, refs: ["main"] })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      body: { message: "Provide at least 2 refs" },
    });
  });

  it("names unknown refs", async () => {
    await expect(find({ diskPath: repo.diskPath, refs: ["main", "missing"] })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      body: { message: "Could not find ref: missing" },
    });
    await expect(find({ diskPath: repo.diskPath, refs: ["x", "main", "-y"] })).rejects.toMatchObject({ body: { message: "Could not find refs: x, -y" } });
  });

  it("answers 404 Merge Base Not Found for unrelated histories", async () => {
    await expect(find({ diskPath: repo.diskPath, refs: ["main", "orphan"] })).rejects.toMatchObject({
      code: status.NOT_FOUND,
      body: { message: "404 Merge Base Not Found" },
    });
  });
});
