import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, setUp, type TestContext } from "../../test/support.ts";
import { commitSnippetFiles } from "./commit-snippet-files.ts";
import { createSnippetRepository } from "./create-snippet-repository.ts";
import { readSnippetFile } from "./read-snippet-file.ts";
import { snippetDir } from "../writes/snippets.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("repo_snippet_read");
});
afterAll(() => t?.close());

const user = { name: "Ada", email: "ada@example.com" };
const put = (snippetId: number, actions: { action: string; filePath: string; content?: Buffer }[]) =>
  commitSnippetFiles(t.deps)({ snippetId, user, expectedHead: "", actions: actions.map((a) => ({ previousPath: "", ...a })) });
const read = (snippetId: number, ref: string, filePath: string) => readSnippetFile(t.deps)({ snippetId, ref, filePath });

describe("ReadSnippetFile", () => {
  it("reads raw bytes at main or any ref", async () => {
    await createSnippetRepository(t.deps)({ snippetId: 1 });
    const { dir } = snippetDir(t.deps, 1);
    const binary = Buffer.from([0, 1, 2, 255, 10]);
    const first = await put(1, [
      { action: "create", filePath: "b.bin", content: binary },
      { action: "create", filePath: "a/x.md", content: Buffer.from("# x\n") },
    ]);
    const second = await put(1, [{ action: "delete", filePath: "a/x.md" }]);
    expect(await read(1, "", "b.bin")).toEqual({ content: binary, blobId: gitIn(dir, "rev-parse", "main:b.bin"), commitId: second.commitId });
    expect((await read(1, first.commitId, "a/x.md")).content.toString()).toBe("# x\n");
    expect((await read(1, "main~1", "a/x.md")).commitId).toBe(first.commitId);
  });

  it("answers NOT_FOUND for unknown refs, paths and snippets", async () => {
    await createSnippetRepository(t.deps)({ snippetId: 2 });
    const fileNotFound = { code: status.NOT_FOUND, body: { message: "404 File Not Found" } };
    await expect(read(2, "", "a")).rejects.toMatchObject(fileNotFound);
    await put(2, [{ action: "create", filePath: "dir/a.txt", content: Buffer.from("a") }]);
    for (const [ref, filePath] of [
      ["", "missing"],
      ["", "dir"],
      ["nope", "dir/a.txt"],
      ["--all", "dir/a.txt"],
    ]) {
      await expect(read(2, ref!, filePath!)).rejects.toMatchObject(fileNotFound);
    }
    await expect(read(2, "", "../x")).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, body: { error: "file_path should be a valid file path" } });
    await expect(read(3, "", "a")).rejects.toMatchObject({ body: { message: "404 Repository Not Found" } });
  });
});
