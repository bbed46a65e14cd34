import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, withTwoStorages, type TestContext } from "../../test/support.ts";
import { createSnippetRepository } from "./create-snippet-repository.ts";
import { scheduleBulkStorageMoves } from "./schedule-bulk-storage-moves.ts";
import { scheduleStorageMove } from "./schedule-storage-move.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("repo_bulk_storage_moves");
  await withTwoStorages(t);
});
afterAll(() => t?.close());

describe("ScheduleBulkStorageMoves", () => {
  it("schedules a move for every snippet repository on the source storage not already moving", async () => {
    for (const id of [701, 702, 703]) await createSnippetRepository(t.deps)({ snippetId: id });
    await scheduleStorageMove(t.deps)({ containerType: "snippet", containerId: 703, diskPath: "", destinationStorageName: "fast" });
    const out = await scheduleBulkStorageMoves(t.deps)({ containerType: "snippet", sourceStorageName: "default", destinationStorageName: "fast" });
    expect(Number(out.scheduled)).toBe(2);
    const moves = await t.deps.prisma.repositoryStorageMove.findMany({ where: { containerType: "snippet" }, orderBy: { id: "asc" } });
    expect(moves.map((m) => [m.containerId, m.state, m.destinationStorageName])).toEqual([
      [703, "scheduled", "fast"],
      [701, "scheduled", "fast"],
      [702, "scheduled", "fast"],
    ]);
    // No project repositories on default: nothing to do.
    expect(
      Number((await scheduleBulkStorageMoves(t.deps)({ containerType: "project", sourceStorageName: "default", destinationStorageName: "" })).scheduled),
    ).toBe(0);
  });

  it("answers Grape's values errors for unknown storages", async () => {
    expect(
      (await failure(scheduleBulkStorageMoves(t.deps)({ containerType: "snippet", sourceStorageName: "nope", destinationStorageName: "" })))?.body,
    ).toEqual({
      error: "source_storage_name does not have a valid value",
    });
    expect(
      (await failure(scheduleBulkStorageMoves(t.deps)({ containerType: "snippet", sourceStorageName: "default", destinationStorageName: "nope" })))?.body,
    ).toEqual({
      error: "destination_storage_name does not have a valid value",
    });
    expect((await failure(scheduleBulkStorageMoves(t.deps)({ containerType: "snippet", sourceStorageName: "", destinationStorageName: "" })))?.body).toEqual({
      error: "source_storage_name is missing",
    });
  });
});
