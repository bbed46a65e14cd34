import { existsSync, readdirSync } from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, setUp, type TestContext } from "../../test/support.ts";
import { commitSnippetFiles } from "./commit-snippet-files.ts";
import { createSnippetRepository } from "./create-snippet-repository.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("repo_snippet_create");
});
afterAll(() => t?.close());

describe("CreateSnippetRepository", () => {
  it("creates a bare repository at @snippets/<h[0..2]>/<h[2..4]>/<sha256(id)>.git with HEAD → main", async () => {
    const h = createHash("sha256").update("42").digest("hex");
    const r = await createSnippetRepository(t.deps)({ snippetId: 42 });
    expect(r).toEqual({ diskPath: `@snippets/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git`, headCommitId: "" });
    const dir = path.join(t.deps.storageRoot, r.diskPath);
    expect(gitIn(dir, "rev-parse", "--is-bare-repository")).toBe("true");
    expect(gitIn(dir, "symbolic-ref", "HEAD")).toBe("refs/heads/main");
  });

  it("is idempotent, also under concurrent calls, and answers with the head", async () => {
    const rs = await Promise.all(Array.from({ length: 5 }, () => createSnippetRepository(t.deps)({ snippetId: 43 })));
    expect(new Set(rs.map((r) => r.diskPath)).size).toBe(1);
    const dir = path.join(t.deps.storageRoot, rs[0]!.diskPath);
    const { commitId } = await commitSnippetFiles(t.deps)({
      snippetId: 43,
      user: { name: "Ada", email: "ada@example.com" },
      expectedHead: "",
      actions: [{ action: "create", filePath: "a.txt", previousPath: "", content: Buffer.from("a") }],
    });
    expect(await createSnippetRepository(t.deps)({ snippetId: 43 })).toEqual({ diskPath: rs[0]!.diskPath, headCommitId: commitId });
    // No temporary directories left beside it.
    expect(readdirSync(path.dirname(dir))).toEqual([path.basename(dir)]);
  });

  it("refuses an invalid snippet id", async () => {
    await expect(createSnippetRepository(t.deps)({ snippetId: -1 })).rejects.toMatchObject({ body: { error: "snippet_id does not have a valid value" } });
    expect(existsSync(path.join(t.deps.storageRoot, "@snippets", "undefined"))).toBe(false);
  });
});
