import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, withTwoStorages, type TestContext } from "../../test/support.ts";
import { createSnippetRepository } from "./create-snippet-repository.ts";
import { getStorageMove } from "./get-storage-move.ts";
import { scheduleStorageMove } from "./schedule-storage-move.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("repo_get_storage_move");
  await withTwoStorages(t);
});
afterAll(() => t?.close());

describe("GetStorageMove", () => {
  it("answers a move by id, of its kind and container only; cleanup_failed reads as GitLab's `cleanup failed`", async () => {
    await createSnippetRepository(t.deps)({ snippetId: 901 });
    const move = await scheduleStorageMove(t.deps)({ containerType: "snippet", containerId: 901, diskPath: "", destinationStorageName: "fast" });
    const id = Number(move.id);
    expect(await getStorageMove(t.deps)({ containerType: "snippet", id, containerId: 901 })).toEqual(move);
    expect(await getStorageMove(t.deps)({ containerType: "snippet", id, containerId: 0 })).toEqual(move);
    for (const req of [
      { containerType: "snippet", id, containerId: 902 },
      { containerType: "project", id, containerId: 0 },
      { containerType: "snippet", id: 2 ** 40, containerId: 0 },
    ]) {
      expect((await failure(getStorageMove(t.deps)(req)))?.body).toEqual({ message: "404 Not Found" });
    }
    await t.deps.prisma.repositoryStorageMove.update({ where: { id }, data: { state: "cleanup_failed" } });
    expect((await getStorageMove(t.deps)({ containerType: "snippet", id, containerId: 0 })).state).toBe("cleanup failed");
  });
});
