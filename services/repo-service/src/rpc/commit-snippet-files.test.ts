import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, setUp, type TestContext } from "../../test/support.ts";
import { commitSnippetFiles } from "./commit-snippet-files.ts";
import { createSnippetRepository } from "./create-snippet-repository.ts";
import { snippetDir } from "../writes/snippets.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("repo_snippet_commit");
});
afterAll(() => t?.close());

let nextId = 1000;
async function snippet(): Promise<{ id: number; dir: string }> {
  const id = nextId++;
  await createSnippetRepository(t.deps)({ snippetId: id });
  return { id, dir: snippetDir(t.deps, id).dir };
}

type Action = { action: string; filePath?: string; previousPath?: string; content?: string | Buffer };
const user = { name: "Ada Lovelace", email: "ada@example.com" };
const commit = (id: number, actions: Action[], o: { expectedHead?: string } = {}) =>
  commitSnippetFiles(t.deps)({
    snippetId: id,
    user,
    expectedHead: o.expectedHead ?? "",
    actions: actions.map((a) => ({ filePath: "", previousPath: "", ...a, content: a.content === undefined ? undefined : Buffer.from(a.content) })) as never,
  });
const refused = async (p: Promise<unknown>) => {
  const err = (await p.then(
    () => null,
    (e: unknown) => e,
  )) as { code: number; body: unknown } | null;
  expect(err).not.toBeNull();
  return { code: err!.code, body: err!.body };
};

describe("CommitSnippetFiles", () => {
  it("writes the first commit as 'Initial commit' by the acting user, then 'Update snippet'", async () => {
    const { id, dir } = await snippet();
    const first = await commit(id, [
      { action: "create", filePath: "hello.rb", content: "puts 'hi'\n" },
      { action: "create", filePath: "notes.md", content: "# Notes\n" },
    ]);
    expect(first).toMatchObject({ committed: true, filePaths: ["hello.rb", "notes.md"] });
    expect(gitIn(dir, "rev-parse", "refs/heads/main")).toBe(first.commitId);
    const log = gitIn(dir, "log", "--format=%an <%ae>|%cn <%ce>|%s|%P", "main");
    expect(log).toBe("Ada Lovelace <ada@example.com>|Ada Lovelace <ada@example.com>|Initial commit|");
    expect(gitIn(dir, "show", "main:hello.rb")).toBe("puts 'hi'");

    const second = await commit(id, [
      { action: "update", filePath: "hello.rb", content: "puts 'hello'\n" },
      { action: "move", previousPath: "notes.md", filePath: "docs/notes.md" },
      { action: "create", filePath: "extra.txt", content: "x" },
      { action: "delete", filePath: "extra.txt" },
    ]);
    expect(second.filePaths).toEqual(["docs/notes.md", "hello.rb"]);
    expect(gitIn(dir, "log", "--format=%s|%P", "main").split("\n")).toEqual([`Update snippet|${first.commitId}`, "Initial commit|"]);
    expect(gitIn(dir, "show", "main:docs/notes.md")).toBe("# Notes");
    expect(gitIn(dir, "show", "main:hello.rb")).toBe("puts 'hello'");
    expect(gitIn(dir, "ls-tree", "-r", "--name-only", "main").split("\n")).toEqual(["docs/notes.md", "hello.rb"]);
    gitIn(dir, "fsck", "--strict", "--no-dangling");
  });

  it("names files without a path snippetfile<N>.txt after the highest one there", async () => {
    const { id } = await snippet();
    await commit(id, [
      { action: "create", content: "a" },
      { action: "create", filePath: "snippetfile7.txt", content: "b" },
    ]);
    const r = await commit(id, [{ action: "create", content: "c" }]);
    expect(r.filePaths).toEqual(["snippetfile1.txt", "snippetfile7.txt", "snippetfile8.txt"]);
  });

  it("drops an update without content and commits nothing when nothing is left", async () => {
    const { id, dir } = await snippet();
    const first = await commit(id, [{ action: "create", filePath: "a.txt", content: "a" }]);
    const r = await commit(id, [{ action: "update", filePath: "a.txt" }]);
    expect(r).toEqual({ commitId: first.commitId, committed: false, filePaths: ["a.txt"] });
    const same = await commit(id, [{ action: "update", filePath: "a.txt", content: "a" }]);
    expect(same.committed).toBe(false);
    expect(gitIn(dir, "rev-list", "--count", "main")).toBe("1");
  });

  it("refuses with GitLab's snippet errors", async () => {
    const { id, dir } = await snippet();
    // Creating on an empty snippet says "creating".
    expect(await refused(commit(id, [{ action: "update", filePath: "missing.txt", content: "x" }]))).toEqual({
      code: status.INVALID_ARGUMENT,
      body: { message: { error: "Repository Error creating the snippet" } },
    });
    const head = (await commit(id, [{ action: "create", filePath: "a.txt", content: "a" }])).commitId;
    const updating = { code: status.INVALID_ARGUMENT, body: { message: { error: "Repository Error updating the snippet" } } };
    expect(await refused(commit(id, [{ action: "create", filePath: "a.txt", content: "again" }]))).toEqual(updating);
    expect(await refused(commit(id, [{ action: "delete", filePath: "nope.txt" }]))).toEqual(updating);
    expect(await refused(commit(id, [{ action: "move", previousPath: "nope.txt", filePath: "b.txt" }]))).toEqual(updating);
    const invalidName = { code: status.INVALID_ARGUMENT, body: { message: { error: "Repository Error updating the snippet - Invalid file name" } } };
    for (const filePath of ["../etc/passwd", "a/../../b", "/etc/passwd", "a//b", ".git/config"]) {
      expect(await refused(commit(id, [{ action: "create", filePath, content: "x" }]))).toEqual(invalidName);
    }
    expect(await refused(commit(id, [{ action: "chmod", filePath: "a.txt" }]))).toEqual({
      code: status.INVALID_ARGUMENT,
      body: { error: "files[0][action] does not have a valid value" },
    });
    // Snippet.max_file_limit: 10 files at most, counted after the actions.
    const ten = Array.from({ length: 9 }, (_, i) => ({ action: "create", filePath: `f${i}.txt`, content: `${i}` }));
    await commit(id, ten);
    expect(await refused(commit(id, [{ action: "create", filePath: "eleventh.txt", content: "x" }]))).toEqual(updating);
    await commit(id, [
      { action: "delete", filePath: "f0.txt" },
      { action: "create", filePath: "swap.txt", content: "x" },
    ]);
    expect(gitIn(dir, "ls-tree", "-r", "--name-only", "main").split("\n")).toHaveLength(10);
    expect(gitIn(dir, "rev-list", "--count", "main")).toBe("3");
    expect(gitIn(dir, "rev-list", "main").split("\n")).toContain(head);
  });

  it("refuses content over snippet_size_limit (50 MB) as Snippet's validation", async () => {
    const { id, dir } = await snippet();
    const big = Buffer.alloc(52_428_801, 0x61);
    expect(await refused(commit(id, [{ action: "create", filePath: "big.txt", content: big }]))).toEqual({
      code: status.INVALID_ARGUMENT,
      body: { message: { error: "Content is too long (50 MB). The maximum size is 50 MB." } },
    });
    expect(gitIn(dir, "for-each-ref")).toBe("");
  });

  it("lets one of two concurrent commits win the compare-and-swap; the other leaves nothing behind", async () => {
    const { id, dir } = await snippet();
    const base = (await commit(id, [{ action: "create", filePath: "a.txt", content: "base\n" }])).commitId;
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => commit(id, [{ action: "update", filePath: "a.txt", content: `writer ${i}\n` }], { expectedHead: base })),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    for (const r of lost) expect((r.reason as { body: unknown }).body).toEqual({ message: { error: "Repository Error updating the snippet" } });
    const head = gitIn(dir, "rev-parse", "main");
    expect(head).toBe((won[0] as PromiseFulfilledResult<{ commitId: string }>).value.commitId);
    expect(gitIn(dir, "rev-parse", "main~1")).toBe(base);
    gitIn(dir, "fsck", "--strict", "--no-dangling");

    // Without expected_head each writer builds on the head it read: some may lose, none is lost silently.
    const free = await Promise.allSettled(Array.from({ length: 4 }, (_, i) => commit(id, [{ action: "create", filePath: `n${i}.txt`, content: "n" }])));
    const committed = free.filter((r) => r.status === "fulfilled").length;
    expect(committed).toBeGreaterThanOrEqual(1);
    expect(Number(gitIn(dir, "rev-list", "--count", "main"))).toBe(2 + committed);
    expect(
      gitIn(dir, "ls-tree", "--name-only", "main")
        .split("\n")
        .filter((p) => p.startsWith("n")),
    ).toHaveLength(committed);
  });

  it("answers NOT_FOUND for a snippet without repository and checks its input", async () => {
    expect((await refused(commit(999_999, [{ action: "create", filePath: "a", content: "a" }]))).code).toBe(status.NOT_FOUND);
    const { id } = await snippet();
    expect(await refused(commit(id, []))).toEqual({ code: status.INVALID_ARGUMENT, body: { error: "files is missing" } });
    expect((await refused(commit(0, [{ action: "create", content: "a" }]))).body).toEqual({ error: "snippet_id does not have a valid value" });
  });
});
