import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRequest, gitIn, gitOk, setUp, type TestContext } from "../../test/support.ts";
import { createRepository } from "./create-repository.ts";

let t: TestContext;
let create: ReturnType<typeof createRepository>;
const dirOf = (diskPath: string) => path.join(t.deps.storageRoot, diskPath);

beforeAll(async () => {
  t = await setUp("repo_create");
  create = createRepository(t.deps);
});
afterAll(() => t?.close());

describe("CreateRepository", () => {
  it("creates an empty bare repository whose HEAD points at the default branch", async () => {
    const req = createRequest({ defaultBranch: "develop" });
    const res = await create(req);

    expect(res).toMatchObject({ headCommitId: "", commitCount: 0 });
    // An empty bare repository still has its files on disk: that is its first repository_size.
    expect(res.repositorySize).toBeGreaterThan(0);
    const dir = dirOf(req.diskPath);
    expect(gitIn(dir, "rev-parse", "--is-bare-repository")).toBe("true");
    expect(gitIn(dir, "symbolic-ref", "HEAD")).toBe("refs/heads/develop");
    expect(gitIn(dir, "for-each-ref")).toBe("");
    const row = await t.deps.prisma.repository.findUnique({ where: { projectId: req.projectId } });
    expect(row).toMatchObject({ projectId: req.projectId, diskPath: req.diskPath, defaultBranch: "develop" });
  });

  it("protects the default branch created with the README (default_branch_protection), not an empty one", async () => {
    const rules = (projectId: number) =>
      t.deps.prisma.protectedBranch.findMany({ where: { projectId }, include: { accessLevels: { orderBy: { kind: "asc" } } } });
    const withReadme = createRequest({ defaultBranch: "trunk", initializeWithReadme: true });
    await create(withReadme);
    const [rule] = await rules(withReadme.projectId);
    expect(rule).toMatchObject({ name: "trunk", allowForcePush: false });
    expect(rule!.accessLevels.map((l) => [l.kind, l.accessLevel])).toEqual([
      ["merge", 40],
      ["push", 40],
      ["unprotect", 40],
    ]);
    const empty = createRequest();
    await create(empty);
    expect(await rules(empty.projectId)).toEqual([]);
    // Setting 0: nothing is protected.
    const none = createRequest({ initializeWithReadme: true });
    await createRepository({ ...t.deps, defaultBranchProtection: 0 })(none);
    expect(await rules(none.projectId)).toEqual([]);
    // Setting 1: Developers may push and merge.
    const dev = createRequest({ initializeWithReadme: true });
    await createRepository({ ...t.deps, defaultBranchProtection: 1 })(dev);
    expect((await rules(dev.projectId))[0]!.accessLevels.map((l) => l.accessLevel)).toEqual([30, 30, 40]);
  });

  it("defaults the branch to main", async () => {
    const req = createRequest({ defaultBranch: "" });
    await create(req);
    expect(gitIn(dirOf(req.diskPath), "symbolic-ref", "HEAD")).toBe("refs/heads/main");
  });

  it("writes a README commit on the default branch, authored by the request's identity", async () => {
    const req = createRequest({
      defaultBranch: "trunk",
      initializeWithReadme: true,
      author: { name: "Grace Hopper", email: "grace@example.com" },
      projectName: "Compiler",
      projectDescription: "The first one.",
    });
    const { headCommitId, commitCount, repositorySize } = await create(req);

    const dir = dirOf(req.diskPath);
    expect(headCommitId).toMatch(/^[0-9a-f]{40}$/);
    expect(commitCount).toBe(1);
    expect(repositorySize).toBeGreaterThan(0);
    expect(gitIn(dir, "rev-parse", "refs/heads/trunk")).toBe(headCommitId);
    expect(gitIn(dir, "rev-parse", "HEAD")).toBe(headCommitId);
    expect(gitIn(dir, "for-each-ref", "--format=%(refname)")).toBe("refs/heads/trunk");
    // One root commit, author and committer from the request.
    expect(gitIn(dir, "log", "--format=%H|%P|%an|%ae|%cn|%ce|%s", "trunk")).toBe(
      `${headCommitId}||Grace Hopper|grace@example.com|Grace Hopper|grace@example.com|Initial commit`,
    );
    expect(gitIn(dir, "ls-tree", "trunk")).toMatch(/^100644 blob [0-9a-f]{40}\tREADME\.md$/);
    expect(gitIn(dir, "show", "trunk:README.md")).toBe("# Compiler\n\nThe first one.");
    expect(gitIn(dir, "cat-file", "-s", "trunk:README.md")).toBe(String("# Compiler\n\nThe first one.\n".length));
    expect(gitOk(dir, "fsck", "--strict")).toBe(true);
  });

  it("writes only the title when there is no description", async () => {
    const req = createRequest({ initializeWithReadme: true, projectName: "Bare Title" });
    await create(req);
    const dir = dirOf(req.diskPath);
    expect(gitIn(dir, "cat-file", "blob", "main:README.md") + "\n").toBe("# Bare Title\n");
  });

  it("is idempotent for the same project and path", async () => {
    const req = createRequest({ initializeWithReadme: true });
    const first = await create(req);
    const before = await t.deps.prisma.repository.findUniqueOrThrow({ where: { projectId: req.projectId } });

    const second = await create({ ...req, defaultBranch: "other", projectName: "Changed" });

    expect(second).toEqual(first);
    const dir = dirOf(req.diskPath);
    expect(gitIn(dir, "rev-list", "--all")).toBe(first.headCommitId);
    expect(gitIn(dir, "symbolic-ref", "HEAD")).toBe("refs/heads/main");
    const after = await t.deps.prisma.repository.findMany({ where: { projectId: req.projectId } });
    expect(after).toEqual([before]);
  });

  it("is idempotent when called concurrently", async () => {
    const req = createRequest({ initializeWithReadme: true });
    const results = await Promise.all([create(req), create(req), create(req)]);
    expect(new Set(results.map((r) => r.headCommitId)).size).toBe(1);
    expect(gitIn(dirOf(req.diskPath), "rev-list", "--all")).toBe(results[0]!.headCommitId);
    expect(await t.deps.prisma.repository.count({ where: { projectId: req.projectId } })).toBe(1);
  });

  it("recreates a recorded repository whose directory is gone", async () => {
    const req = createRequest();
    await create(req);
    const dir = dirOf(req.diskPath);
    rmSync(dir, { recursive: true });

    await create(req);
    expect(gitIn(dir, "symbolic-ref", "HEAD")).toBe("refs/heads/main");
    expect(await t.deps.prisma.repository.count({ where: { projectId: req.projectId } })).toBe(1);
  });

  it("refuses a path taken by another project, and a second path for the same project", async () => {
    const req = createRequest();
    await create(req);
    const other = createRequest();

    await expect(create({ ...other, diskPath: req.diskPath })).rejects.toMatchObject({ code: status.ALREADY_EXISTS });
    await expect(create({ ...req, diskPath: other.diskPath })).rejects.toMatchObject({ code: status.ALREADY_EXISTS });
    expect(existsSync(dirOf(other.diskPath))).toBe(false);
    expect(await t.deps.prisma.repository.count({ where: { projectId: other.projectId } })).toBe(0);
  });

  it("leaves an unrecorded directory that is already on disk alone", async () => {
    const req = createRequest();
    const dir = dirOf(req.diskPath);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "keep"), "mine");

    await expect(create(req)).rejects.toMatchObject({
      code: status.ALREADY_EXISTS,
      body: { message: "There is already a repository with that name on disk" },
    });
    expect(readdirSync(dir)).toEqual(["keep"]);
    expect(await t.deps.prisma.repository.count({ where: { projectId: req.projectId } })).toBe(0);
  });

  it.each([
    ["../escape.git"],
    ["@hashed/../../escape.git"],
    ["@hashed/ab/../../../escape.git"],
    ["/tmp/absolute.git"],
    ["@hashed//ab.git"],
    ["@hashed/./ab.git"],
    ["@hashed\\ab.git"],
    ["@hashed"],
    [".git"],
    [""],
  ])("refuses the disk path %j", async (diskPath) => {
    const req = createRequest({ diskPath });
    await expect(create(req)).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    expect(existsSync(path.join(t.sandbox, "escape.git"))).toBe(false);
    expect(existsSync("/tmp/absolute.git")).toBe(false);
    expect(await t.deps.prisma.repository.count({ where: { projectId: req.projectId } })).toBe(0);
  });

  it.each([["a..b"], ["-x"], ["HEAD"], ["with space"], ["refs/heads/x"], ["x.lock"], ["@{-1}"]])("refuses the default branch %j", async (defaultBranch) => {
    const req = createRequest({ defaultBranch });
    await expect(create(req)).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      body: { error: "default_branch does not have a valid value" },
    });
    expect(existsSync(dirOf(req.diskPath))).toBe(false);
  });

  it("requires an author for the README commit and a valid project id", async () => {
    await expect(create(createRequest({ initializeWithReadme: true, author: null }))).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      body: { error: "author is missing" },
    });
    await expect(create(createRequest({ projectId: 0 }))).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
  });

  it("removes the directory and the row when a step after git init fails", async () => {
    // git refuses an author name made only of disallowed characters: commit-tree fails after init.
    const req = createRequest({ initializeWithReadme: true, author: { name: "<>", email: "x@example.com" } });
    await expect(create(req)).rejects.toMatchObject({ name: "GitError" });

    expect(existsSync(dirOf(req.diskPath))).toBe(false);
    expect(await t.deps.prisma.repository.count({ where: { projectId: req.projectId } })).toBe(0);
    // Nothing is left behind that would block a corrected retry.
    const retry = await create({ ...req, author: { name: "Fixed", email: "x@example.com" } });
    expect(gitIn(dirOf(req.diskPath), "log", "--format=%an", "main")).toBe("Fixed");
    expect(retry.headCommitId).toMatch(/^[0-9a-f]{40}$/);
  });
});
