import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, withTwoStorages, type TestContext } from "../../test/support.ts";
import { createSnippetRepository } from "./create-snippet-repository.ts";
import { listStorageMoves } from "./list-storage-moves.ts";
import { scheduleStorageMove } from "./schedule-storage-move.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("repo_list_storage_moves");
  await withTwoStorages(t);
});
afterAll(() => t?.close());

describe("ListStorageMoves", () => {
  it("lists a kind's moves newest first, of one container when asked, one page with the total", async () => {
    const ids: number[] = [];
    for (const id of [801, 802, 803]) {
      await createSnippetRepository(t.deps)({ snippetId: id });
      ids.push(Number((await scheduleStorageMove(t.deps)({ containerType: "snippet", containerId: id, diskPath: "", destinationStorageName: "fast" })).id));
    }
    const all = await listStorageMoves(t.deps)({ containerType: "snippet", containerId: 0, page: 1, perPage: 2 });
    expect(Number(all.total)).toBe(3);
    expect(all.moves!.map((m) => Number(m.id))).toEqual([ids[2], ids[1]]);
    const second = await listStorageMoves(t.deps)({ containerType: "snippet", containerId: 0, page: 2, perPage: 2 });
    expect(second.moves!.map((m) => Number(m.id))).toEqual([ids[0]]);
    const one = await listStorageMoves(t.deps)({ containerType: "snippet", containerId: 802, page: 1, perPage: 20 });
    expect(one.moves).toEqual([
      expect.objectContaining({ id: ids[1], containerId: 802, state: "scheduled", sourceStorageName: "default", destinationStorageName: "fast" }),
    ]);
    expect(Number((await listStorageMoves(t.deps)({ containerType: "project", containerId: 0, page: 1, perPage: 20 })).total)).toBe(0);
  });
});
