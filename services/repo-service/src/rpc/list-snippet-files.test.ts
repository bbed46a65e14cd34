import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, setUp, type TestContext } from "../../test/support.ts";
import { commitSnippetFiles } from "./commit-snippet-files.ts";
import { createSnippetRepository } from "./create-snippet-repository.ts";
import { listSnippetFiles } from "./list-snippet-files.ts";
import { snippetDir } from "../writes/snippets.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("repo_snippet_list");
});
afterAll(() => t?.close());

const user = { name: "Ada", email: "ada@example.com" };
const put = (snippetId: number, actions: { action: string; filePath: string; content?: Buffer }[]) =>
  commitSnippetFiles(t.deps)({ snippetId, user, expectedHead: "", actions: actions.map((a) => ({ previousPath: "", ...a })) });
const list = (snippetId: number, ref: string) => listSnippetFiles(t.deps)({ snippetId, ref });

describe("ListSnippetFiles", () => {
  it("lists every file of the tree at main or any ref", async () => {
    await createSnippetRepository(t.deps)({ snippetId: 1 });
    const { dir } = snippetDir(t.deps, 1);
    expect(await list(1, "")).toEqual({ commitId: "", files: [] });
    const first = await put(1, [
      { action: "create", filePath: "b.bin", content: Buffer.from([0, 1, 2, 255, 10]) },
      { action: "create", filePath: "a/x.md", content: Buffer.from("# x\n") },
    ]);
    const second = await put(1, [{ action: "delete", filePath: "a/x.md" }]);
    expect(await list(1, "")).toEqual({ commitId: second.commitId, files: [{ path: "b.bin", blobId: gitIn(dir, "rev-parse", "main:b.bin"), size: 5 }] });
    expect((await list(1, first.commitId)).files.map((f) => [f.path, f.size])).toEqual([
      ["a/x.md", 4],
      ["b.bin", 5],
    ]);
    expect((await list(1, "main~1")).commitId).toBe(first.commitId);
    expect((await list(1, "main")).commitId).toBe(second.commitId);
  });

  it("answers NOT_FOUND for unknown refs and snippets", async () => {
    await createSnippetRepository(t.deps)({ snippetId: 2 });
    const refNotFound = { code: status.NOT_FOUND, body: { message: "404 Ref Not Found" } };
    await expect(list(2, "main")).rejects.toMatchObject(refNotFound);
    await put(2, [{ action: "create", filePath: "a.txt", content: Buffer.from("a") }]);
    for (const ref of ["nope", "--all", "main:a.txt"]) await expect(list(2, ref)).rejects.toMatchObject(refNotFound);
    await expect(list(3, "")).rejects.toMatchObject({ body: { message: "404 Repository Not Found" } });
  });
});
