import path from "node:path";
import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRequest, gitIn, newProject, setUp, type TestContext } from "../../test/support.ts";
import { createRepository } from "./create-repository.ts";
import { getRepositoryInfo } from "./get-repository-info.ts";

let t: TestContext;
let create: ReturnType<typeof createRepository>;
let info: ReturnType<typeof getRepositoryInfo>;

beforeAll(async () => {
  t = await setUp("repo_info");
  create = createRepository(t.deps);
  info = getRepositoryInfo(t.deps);
});
afterAll(() => t?.close());

describe("GetRepositoryInfo", () => {
  it("reports a missing repository", async () => {
    const { diskPath } = newProject();
    expect(await info({ diskPath })).toEqual({ exists: false, empty: true, defaultBranch: "", branchCount: 0, storageName: "default" });
  });

  it("reports an empty repository with its default branch", async () => {
    const req = createRequest({ defaultBranch: "develop" });
    await create(req);
    expect(await info({ diskPath: req.diskPath })).toEqual({
      exists: true,
      empty: true,
      defaultBranch: "develop",
      branchCount: 0,
      storageName: "default",
    });
  });

  it("reports an initialised repository and counts its branches", async () => {
    const req = createRequest({ initializeWithReadme: true });
    const { headCommitId } = await create(req);
    expect(await info({ diskPath: req.diskPath })).toEqual({ exists: true, empty: false, defaultBranch: "main", branchCount: 1, storageName: "default" });

    const dir = path.join(t.deps.storageRoot, req.diskPath);
    gitIn(dir, "update-ref", "refs/heads/feature/a", headCommitId);
    gitIn(dir, "update-ref", "refs/tags/v1", headCommitId); // tags are not branches
    expect(await info({ diskPath: req.diskPath })).toMatchObject({ empty: false, branchCount: 2 });
  });

  it("counts packed and loose branches once each, as git does", async () => {
    const req = createRequest({ initializeWithReadme: true });
    const { headCommitId } = await create(req);
    const dir = path.join(t.deps.storageRoot, req.diskPath);
    gitIn(dir, "update-ref", "refs/heads/release/1.0", headCommitId);
    gitIn(dir, "pack-refs", "--all");
    gitIn(dir, "update-ref", "refs/heads/main", headCommitId); // loose again, also packed
    gitIn(dir, "update-ref", "refs/heads/loose-only", headCommitId);
    const expected = gitIn(dir, "for-each-ref", "--format=%(refname)", "refs/heads/").split("\n").filter(Boolean).length;
    expect(await info({ diskPath: req.diskPath })).toMatchObject({ empty: false, defaultBranch: "main", branchCount: expected });
    expect(expected).toBe(3);
  });

  it("reports a detached HEAD as no default branch", async () => {
    const req = createRequest({ initializeWithReadme: true });
    const { headCommitId } = await create(req);
    const dir = path.join(t.deps.storageRoot, req.diskPath);
    gitIn(dir, "update-ref", "--no-deref", "HEAD", headCommitId);
    expect(await info({ diskPath: req.diskPath })).toMatchObject({ exists: true, defaultBranch: "", branchCount: 1 });
  });

  it("refuses paths outside the storage root", async () => {
    await expect(info({ diskPath: "../../etc.git" })).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
  });
});
