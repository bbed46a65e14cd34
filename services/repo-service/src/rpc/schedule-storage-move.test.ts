import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, createRequest, gitIn, setUp, withTwoStorages, type TestContext } from "../../test/support.ts";
import { runMove, STORAGE_MOVE_SUBJECT } from "../storage/moves.ts";
import { READ_ONLY_MESSAGE } from "../storage/storages.ts";
import { repoHandlers } from "../server.ts";
import { snippetDiskPath } from "../writes/snippets.ts";
import { commitSnippetFiles } from "./commit-snippet-files.ts";
import { createRepository } from "./create-repository.ts";
import { createSnippetRepository } from "./create-snippet-repository.ts";
import { scheduleStorageMove } from "./schedule-storage-move.ts";

let t: TestContext;
let roots: { defaultRoot: string; fastRoot: string };
beforeAll(async () => {
  t = await setUp("repo_schedule_storage_move");
  roots = await withTwoStorages(t);
});
afterAll(() => t?.close());

const user = { name: "Ada Lovelace", email: "ada@example.com" };
let nextSnippet = 500;
async function snippetWithFile(): Promise<number> {
  const id = nextSnippet++;
  await createSnippetRepository(t.deps)({ snippetId: id });
  await commitSnippetFiles(t.deps)({
    snippetId: id,
    user,
    expectedHead: "",
    actions: [{ action: "create", filePath: "a.txt", previousPath: "", content: Buffer.from("one\n") }],
  } as never);
  return id;
}
describe("ScheduleStorageMove", () => {
  it("schedules a snippet move (state scheduled, read-only, queued through the outbox) and the move copies, verifies, switches and cleans up", async () => {
    const id = await snippetWithFile();
    const diskPath = snippetDiskPath(id);
    expect(existsSync(path.join(roots.defaultRoot, diskPath))).toBe(true);
    const move = await scheduleStorageMove(t.deps)({ containerType: "snippet", containerId: id, diskPath: "", destinationStorageName: "fast" });
    expect(move).toMatchObject({ containerType: "snippet", containerId: id, state: "scheduled", sourceStorageName: "default", destinationStorageName: "fast" });
    const queued = await t.deps.prisma.outboxEvent.findMany({ where: { subject: STORAGE_MOVE_SUBJECT } });
    expect(queued.map((e) => (e.payload as { move_id: number }).move_id)).toContain(Number(move.id));

    // Writes are refused meanwhile (the snippet's own refusal), reads work.
    const handlers = repoHandlers(t.deps) as unknown as Record<string, (req: unknown) => Promise<unknown>>;
    const refused = await failure(
      handlers.CommitSnippetFiles!({
        snippetId: id,
        user,
        expectedHead: "",
        actions: [{ action: "create", filePath: "b.txt", previousPath: "", content: Buffer.from("x") }],
      } as never),
    );
    expect(refused?.body).toEqual({ message: { error: `Repository Error updating the snippet - ${READ_ONLY_MESSAGE}` } });
    // Already moving: GitLab's validation error.
    expect(
      (await failure(scheduleStorageMove(t.deps)({ containerType: "snippet", containerId: id, diskPath: "", destinationStorageName: "fast" })))?.body,
    ).toEqual({
      message: { snippet: ["is read-only"] },
    });

    await runMove(t.deps, Number(move.id));
    const done = await t.deps.prisma.repositoryStorageMove.findUniqueOrThrow({ where: { id: Number(move.id) } });
    expect(done.state).toBe("finished");
    expect(t.deps.storages.storageOf(diskPath)).toBe("fast");
    expect(existsSync(path.join(roots.defaultRoot, diskPath))).toBe(false);
    expect(gitIn(path.join(roots.fastRoot, diskPath), "show", "main:a.txt")).toBe("one");
    // Writable again, on the new storage.
    await handlers.CommitSnippetFiles!({
      snippetId: id,
      user,
      expectedHead: "",
      actions: [{ action: "create", filePath: "b.txt", previousPath: "", content: Buffer.from("two\n") }],
    } as never);
    expect(gitIn(path.join(roots.fastRoot, diskPath), "show", "main:b.txt")).toBe("two");
  });

  it("fails a move whose copy does not verify: the repository stays where it was, writable, and the copy is removed", async () => {
    const id = await snippetWithFile();
    const diskPath = snippetDiskPath(id);
    const move = await scheduleStorageMove(t.deps)({ containerType: "snippet", containerId: id, diskPath: "", destinationStorageName: "fast" });
    await runMove(t.deps, Number(move.id), {
      async afterCopy(dir) {
        gitIn(dir, "update-ref", "refs/heads/tampered", gitIn(dir, "rev-parse", "main"));
      },
    });
    const failed = await t.deps.prisma.repositoryStorageMove.findUniqueOrThrow({ where: { id: Number(move.id) } });
    expect(failed.state).toBe("failed");
    expect(failed.errorMessage).toMatch(/^Failed to verify snippet repository checksum from [0-9a-f]{40} to [0-9a-f]{40}$/);
    expect(t.deps.storages.storageOf(diskPath)).toBe("default");
    expect(t.deps.storages.isReadOnly(diskPath)).toBe(false);
    expect(existsSync(path.join(roots.fastRoot, diskPath))).toBe(false);
  });

  it("moves a project's repository with its wiki; an interrupted copy stays started and runs again", async () => {
    const req = createRequest({ initializeWithReadme: true });
    await createRepository(t.deps)(req);
    const wiki = req.diskPath.replace(/\.git$/, ".wiki.git");
    execInit(path.join(roots.defaultRoot, wiki));
    const move = await scheduleStorageMove(t.deps)({
      containerType: "project",
      containerId: req.projectId,
      diskPath: req.diskPath,
      destinationStorageName: "",
    });
    // No destination: chosen among the other storages.
    expect(move.destinationStorageName).toBe("fast");
    const handlers = repoHandlers(t.deps) as unknown as Record<string, (req: unknown) => Promise<unknown>>;
    expect((await failure(handlers.CreateBranch!({ diskPath: req.diskPath, name: "x", ref: "main" } as never)))?.body).toEqual({ message: READ_ONLY_MESSAGE });

    const stop = new AbortController();
    await runMove(t.deps, Number(move.id), { afterCopy: async () => stop.abort() }, stop.signal);
    expect((await t.deps.prisma.repositoryStorageMove.findUniqueOrThrow({ where: { id: Number(move.id) } })).state).toBe("started");
    expect(existsSync(path.join(roots.fastRoot, req.diskPath))).toBe(false);

    await runMove(t.deps, Number(move.id));
    expect((await t.deps.prisma.repositoryStorageMove.findUniqueOrThrow({ where: { id: Number(move.id) } })).state).toBe("finished");
    expect(existsSync(path.join(roots.fastRoot, req.diskPath))).toBe(true);
    expect(existsSync(path.join(roots.fastRoot, wiki))).toBe(true);
    expect(existsSync(path.join(roots.defaultRoot, wiki))).toBe(false);
    expect(t.deps.storages.resolve(wiki)).toBe(path.join(roots.fastRoot, wiki));
  });

  it("accepts the source storage as destination, as GitLab does (same filesystem: nothing copied, finished)", async () => {
    const id = await snippetWithFile();
    const diskPath = snippetDiskPath(id);
    const move = await scheduleStorageMove(t.deps)({ containerType: "snippet", containerId: id, diskPath: "", destinationStorageName: "default" });
    expect(move).toMatchObject({ state: "scheduled", sourceStorageName: "default", destinationStorageName: "default" });
    await runMove(t.deps, Number(move.id));
    expect((await t.deps.prisma.repositoryStorageMove.findUniqueOrThrow({ where: { id: Number(move.id) } })).state).toBe("finished");
    expect(t.deps.storages.storageOf(diskPath)).toBe("default");
    expect(t.deps.storages.isReadOnly(diskPath)).toBe(false);
    expect(gitIn(path.join(roots.defaultRoot, diskPath), "show", "main:a.txt")).toBe("one");
  });

  it("answers GitLab's validation errors", async () => {
    const id = await snippetWithFile();
    expect(
      (await failure(scheduleStorageMove(t.deps)({ containerType: "snippet", containerId: id, diskPath: "", destinationStorageName: "nope" })))?.body,
    ).toEqual({
      message: { destination_storage_name: ["is not included in the list"] },
    });
    expect((await failure(scheduleStorageMove(t.deps)({ containerType: "wiki", containerId: id, diskPath: "", destinationStorageName: "" })))?.body).toEqual({
      error: "container_type does not have a valid value",
    });
    expect((await failure(scheduleStorageMove(t.deps)({ containerType: "project", containerId: 1, diskPath: "", destinationStorageName: "" })))?.body).toEqual({
      error: "disk_path is missing",
    });
  });
});

function execInit(dir: string): void {
  execFileSync("git", ["init", "--bare", "--quiet", dir]);
}
