import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, withTwoStorages, type TestContext } from "../../test/support.ts";
import { snippetDiskPath } from "../writes/snippets.ts";
import { createSnippetRepository } from "./create-snippet-repository.ts";
import { getRepositoryStorages } from "./get-repository-storages.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("repo_get_repository_storages");
  await withTwoStorages(t);
});
afterAll(() => t?.close());

describe("GetRepositoryStorages", () => {
  it("lists the storages and where each named repository lives (default when not recorded, a wiki with its project)", async () => {
    await createSnippetRepository(t.deps)({ snippetId: 11 });
    await t.deps.storages.switchStorage(snippetDiskPath(11), "fast");
    await t.deps.storages.place("@hashed/12/34/p.git", "project", 5);
    const out = await getRepositoryStorages(t.deps)({ diskPaths: [snippetDiskPath(11), "@hashed/00/00/never.git", "@hashed/12/34/p.wiki.git"] });
    expect(out).toEqual({
      storages: [
        { name: "default", weight: 100 },
        { name: "fast", weight: 0 },
      ],
      storageNames: ["fast", "default", "default"],
    });
  });

  it("refuses a disk path outside the storages", async () => {
    await expect(getRepositoryStorages(t.deps)({ diskPaths: ["/etc/passwd.git"] })).rejects.toMatchObject({
      body: { message: expect.stringContaining("disk_path must be a relative path") },
    });
  });
});
