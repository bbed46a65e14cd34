import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRequest, newProject, setUp, type TestContext } from "../../test/support.ts";
import { createRepository } from "./create-repository.ts";
import { deleteRepository } from "./delete-repository.ts";

let t: TestContext;
let create: ReturnType<typeof createRepository>;
let remove: ReturnType<typeof deleteRepository>;
const dirOf = (diskPath: string) => path.join(t.deps.storageRoot, diskPath);

beforeAll(async () => {
  t = await setUp("repo_delete");
  create = createRepository(t.deps);
  remove = deleteRepository(t.deps);
});
afterAll(() => t?.close());

describe("DeleteRepository", () => {
  it("removes the directory and the row, leaving no trash behind", async () => {
    const req = createRequest({ initializeWithReadme: true });
    await create(req);
    const dir = dirOf(req.diskPath);
    expect(existsSync(dir)).toBe(true);
    expect(await t.deps.prisma.protectedBranch.count({ where: { projectId: req.projectId } })).toBe(1);

    await expect(remove({ projectId: req.projectId, diskPath: req.diskPath })).resolves.toEqual({});

    expect(existsSync(dir)).toBe(false);
    expect(readdirSync(path.dirname(dir)).filter((name) => name.startsWith(path.basename(dir)))).toEqual([]);
    expect(await t.deps.prisma.repository.count({ where: { projectId: req.projectId } })).toBe(0);
    // The default-branch rule created with the README goes with the repository.
    expect(await t.deps.prisma.protectedBranch.count({ where: { projectId: req.projectId } })).toBe(0);
  });

  it("treats a missing repository as deleted", async () => {
    const { projectId, diskPath } = newProject();
    await expect(remove({ projectId, diskPath })).resolves.toEqual({});
    await expect(remove({ projectId: 0, diskPath })).resolves.toEqual({});
  });

  it("drops a row whose directory is already gone, and a directory that has no row", async () => {
    const recorded = createRequest();
    await create(recorded);
    rmSync(dirOf(recorded.diskPath), { recursive: true });
    await remove({ projectId: recorded.projectId, diskPath: recorded.diskPath });
    expect(await t.deps.prisma.repository.count({ where: { projectId: recorded.projectId } })).toBe(0);

    const orphan = newProject();
    mkdirSync(dirOf(orphan.diskPath), { recursive: true });
    writeFileSync(path.join(dirOf(orphan.diskPath), "HEAD"), "ref: refs/heads/main\n");
    await remove(orphan);
    expect(existsSync(dirOf(orphan.diskPath))).toBe(false);
  });

  it("allows the project to get a new repository afterwards", async () => {
    const req = createRequest();
    await create(req);
    await remove(req);
    await create(req);
    expect(existsSync(path.join(dirOf(req.diskPath), "HEAD"))).toBe(true);
  });

  it("refuses to delete another project's repository", async () => {
    const req = createRequest();
    await create(req);
    await expect(remove({ projectId: req.projectId + 1000, diskPath: req.diskPath })).rejects.toMatchObject({
      code: status.ALREADY_EXISTS,
    });
    expect(existsSync(dirOf(req.diskPath))).toBe(true);
    expect(await t.deps.prisma.repository.count({ where: { projectId: req.projectId } })).toBe(1);
  });

  it.each([["../victim.git"], ["@hashed/../../victim.git"], ["@hashed"], [""]])("refuses the disk path %j and removes nothing", async (diskPath) => {
    const victim = path.join(t.sandbox, "victim.git");
    mkdirSync(victim, { recursive: true });
    mkdirSync(path.join(t.deps.storageRoot, "@hashed"), { recursive: true });

    await expect(remove({ projectId: 1, diskPath })).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    expect(existsSync(victim)).toBe(true);
    expect(existsSync(path.join(t.deps.storageRoot, "@hashed"))).toBe(true);
  });
});
