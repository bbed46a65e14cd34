import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type TestContext } from "../../test/support.ts";
import { commitSnippetFiles } from "./commit-snippet-files.ts";
import { createSnippetRepository } from "./create-snippet-repository.ts";
import { deleteSnippetRepository } from "./delete-snippet-repository.ts";
import { listSnippetFiles } from "./list-snippet-files.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("repo_snippet_delete");
});
afterAll(() => t?.close());

describe("DeleteSnippetRepository", () => {
  it("removes the repository (after reads warmed the cat-file pool); missing is no error", async () => {
    const { diskPath } = await createSnippetRepository(t.deps)({ snippetId: 7 });
    await commitSnippetFiles(t.deps)({
      snippetId: 7,
      user: { name: "Ada", email: "ada@example.com" },
      expectedHead: "",
      actions: [{ action: "create", filePath: "a.txt", previousPath: "", content: Buffer.from("a") }],
    });
    expect((await listSnippetFiles(t.deps)({ snippetId: 7, ref: "" })).files).toHaveLength(1);
    const dir = path.join(t.deps.storageRoot, diskPath);
    expect(await deleteSnippetRepository(t.deps)({ snippetId: 7 })).toEqual({});
    expect(existsSync(dir)).toBe(false);
    expect(readdirSync(path.dirname(dir))).toEqual([]);
    expect(await deleteSnippetRepository(t.deps)({ snippetId: 7 })).toEqual({});
    await expect(listSnippetFiles(t.deps)({ snippetId: 7, ref: "" })).rejects.toMatchObject({ body: { message: "404 Repository Not Found" } });
    // Created again, it starts empty.
    expect((await createSnippetRepository(t.deps)({ snippetId: 7 })).headCommitId).toBe("");
  });
});
