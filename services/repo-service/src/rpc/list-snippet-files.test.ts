import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, setUp, type TestContext } from "../../test/support.ts";
import { commitSnippetFiles } from "./commit-snippet-files.ts";
import { createSnippetRepository } from "./create-snippet-repository.ts";
import { listSnippetFiles } from "./list-snippet-files.ts";
import { readSnippetFile } from "./read-snippet-file.ts";
import { snippetDir } from "../writes/snippets.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("repo_snippet_list");
});
afterAll(() => t?.close());

const user = { name: "Ada", email: "ada@example.com" };
const put = (snippetId: number, actions: { action: string; filePath: string; previousPath?: string; content?: Buffer }[]) =>
  commitSnippetFiles(t.deps)({ snippetId, user, expectedHead: "", actions: actions.map((a) => ({ previousPath: "", ...a })) });

describe("ListSnippetFiles and ReadSnippetFile", () => {
  it("list the files at main or any ref, and read raw bytes", async () => {
    await createSnippetRepository(t.deps)({ snippetId: 1 });
    const { dir } = snippetDir(t.deps, 1);
    expect(await listSnippetFiles(t.deps)({ snippetId: 1, ref: "" })).toEqual({ commitId: "", files: [] });
    const binary = Buffer.from([0, 1, 2, 255, 10]);
    const first = await put(1, [
      { action: "create", filePath: "b.bin", content: binary },
      { action: "create", filePath: "a/x.md", content: Buffer.from("# x\n") },
    ]);
    const second = await put(1, [{ action: "delete", filePath: "a/x.md" }]);

    const now = await listSnippetFiles(t.deps)({ snippetId: 1, ref: "" });
    expect(now).toEqual({ commitId: second.commitId, files: [{ path: "b.bin", blobId: gitIn(dir, "rev-parse", "main:b.bin"), size: 5 }] });
    const then = await listSnippetFiles(t.deps)({ snippetId: 1, ref: first.commitId });
    expect(then.files.map((f) => [f.path, f.size])).toEqual([["a/x.md", 4], ["b.bin", 5]]);
    expect((await listSnippetFiles(t.deps)({ snippetId: 1, ref: "main~1" })).commitId).toBe(first.commitId);

    const raw = await readSnippetFile(t.deps)({ snippetId: 1, ref: "", filePath: "b.bin" });
    expect(raw).toEqual({ content: binary, blobId: gitIn(dir, "rev-parse", "main:b.bin"), commitId: second.commitId });
    expect((await readSnippetFile(t.deps)({ snippetId: 1, ref: first.commitId, filePath: "a/x.md" })).content.toString()).toBe("# x\n");
  });

  it("answer NOT_FOUND for unknown refs, paths and snippets", async () => {
    await createSnippetRepository(t.deps)({ snippetId: 2 });
    const fileNotFound = { code: status.NOT_FOUND, body: { message: "404 File Not Found" } };
    await expect(readSnippetFile(t.deps)({ snippetId: 2, ref: "", filePath: "a" })).rejects.toMatchObject(fileNotFound);
    await put(2, [{ action: "create", filePath: "dir/a.txt", content: Buffer.from("a") }]);
    for (const [ref, filePath] of [["", "missing"], ["", "dir"], ["nope", "dir/a.txt"], ["--all", "dir/a.txt"]]) {
      await expect(readSnippetFile(t.deps)({ snippetId: 2, ref: ref!, filePath: filePath! })).rejects.toMatchObject(fileNotFound);
    }
    await expect(readSnippetFile(t.deps)({ snippetId: 2, ref: "", filePath: "../x" })).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    const refNotFound = { code: status.NOT_FOUND, body: { message: "404 Ref Not Found" } };
    await expect(listSnippetFiles(t.deps)({ snippetId: 2, ref: "nope" })).rejects.toMatchObject(refNotFound);
    await expect(listSnippetFiles(t.deps)({ snippetId: 3, ref: "" })).rejects.toMatchObject({ body: { message: "404 Repository Not Found" } });
  });
});
