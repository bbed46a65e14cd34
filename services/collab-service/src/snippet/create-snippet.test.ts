import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_snip_create");
});
afterAll(() => t?.close());

const file = (filePath: string, content: string) => ({ action: "create", filePath, previousPath: "", content });

describe("CreateSnippet", () => {
  it("creates a personal snippet with its repository and first commit", async () => {
    const author = await t.user();
    const s = await t.client.CreateSnippet({ actor: author, title: "hello", visibility: "public", files: [file("a.rb", "puts 1\n"), file("b/c.txt", "c")] });
    expect(s).toMatchObject({
      projectId: 0,
      authorId: author.userId,
      title: "hello",
      visibility: "public",
      fileName: "a.rb",
      files: ["a.rb", "b/c.txt"],
      defaultBranch: "main",
    });
    expect(s.diskPath).toMatch(/^@snippets\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.git$/);
    expect(s.description).toBeUndefined();
    const raw = await t.client.ReadSnippetRaw({ ref: { actor: author, snippetId: s.id, project: "", forChange: false }, gitRef: "main", filePath: "b/c.txt" });
    expect(raw.content.toString()).toBe("c");
  });

  it("takes the deprecated file_name and content, and defaults a personal snippet to internal", async () => {
    const author = await t.user();
    const s = await t.client.CreateSnippet({ actor: author, title: "old", fileName: "x.txt", content: "x", description: "d" });
    expect(s).toMatchObject({ visibility: "internal", fileName: "x.txt", files: ["x.txt"], description: "d" });
  });

  it("refuses bad parameters with GitLab's messages", async () => {
    const author = await t.user();
    expect(await failure(t.client.CreateSnippet({ actor: author, title: " ", fileName: "x", content: "x" }))).toEqual({
      status: 400,
      body: { error: "title is empty" },
    });
    expect(await failure(t.client.CreateSnippet({ actor: author, title: "t" }))).toEqual({
      status: 400,
      body: { error: "files, content are missing, exactly one parameter must be provided" },
    });
    expect(await failure(t.client.CreateSnippet({ actor: author, title: "t", content: "x", files: [file("a", "b")] }))).toEqual({
      status: 400,
      body: { error: "files, content are mutually exclusive" },
    });
    expect(await failure(t.client.CreateSnippet({ actor: author, title: "t", content: "x" }))).toEqual({
      status: 400,
      body: { error: "file_name is missing" },
    });
    expect(await failure(t.client.CreateSnippet({ actor: author, title: "t", visibility: "secret", content: "x", fileName: "a" }))).toEqual({
      status: 400,
      body: { error: "visibility does not have a valid value" },
    });
  });

  it("leaves no row and no repository behind when the commit is refused", async () => {
    const author = await t.user();
    const before = await t.svc.deps.prisma.snippet.count();
    const eleven = Array.from({ length: 11 }, (_, i) => file(`f${i}.txt`, "x"));
    expect(await failure(t.client.CreateSnippet({ actor: author, title: "many", files: eleven }))).toEqual({
      status: 400,
      body: { message: { error: "Repository Error creating the snippet" } },
    });
    expect(await failure(t.client.CreateSnippet({ actor: author, title: "bad", files: [file("../x", "x")] }))).toMatchObject({ status: 400 });
    expect(await t.svc.deps.prisma.snippet.count()).toBe(before);
    // The drawn ids' repositories are gone: a snippet with the next id starts from an empty repository.
    const s = await t.client.CreateSnippet({ actor: author, title: "ok", files: [file("one.txt", "1")] });
    expect(s.files).toEqual(["one.txt"]);
    const listed = await t.svc.deps.repo.ListSnippetFiles({ snippetId: Number(s.id) - 1, ref: "" }).catch((e: { code: number }) => e.code);
    expect(listed).toBe(5); // NOT_FOUND: the refused snippet's repository was removed
  });

  it("needs a signed-in user, and Reporter or above for a project snippet", async () => {
    expect(await failure(t.client.CreateSnippet({ actor: t.anonymous, title: "t", fileName: "a", content: "b" }))).toEqual({
      status: 401,
      body: { message: "401 Unauthorized" },
    });
    const priv = await t.project({ visibility: "private" });
    const pub = await t.project({ visibility: "public" });
    const outsider = await t.user();
    const args = { title: "p", visibility: "private", fileName: "a.txt", content: "a" };
    expect(await failure(t.client.CreateSnippet({ actor: outsider, project: String(priv.id), ...args }))).toEqual({
      status: 404,
      body: { message: "404 Project Not Found" },
    });
    expect(await failure(t.client.CreateSnippet({ actor: outsider, project: String(pub.id), ...args }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    const guest = await t.user();
    const reporter = await t.user();
    await t.member("project", priv.id, guest, 10);
    await t.member("project", priv.id, reporter, 20);
    expect(await failure(t.client.CreateSnippet({ actor: guest, project: String(priv.id), ...args }))).toMatchObject({ status: 403 });
    const s = await t.client.CreateSnippet({ actor: reporter, project: priv.path, ...args });
    expect(s).toMatchObject({ projectId: priv.id, projectPath: priv.path, authorId: reporter.userId, visibility: "private", files: ["a.txt"] });
  });

  it("refuses external users a personal snippet", async () => {
    const ext = await t.user();
    await t.identity.UpdateUser({ actor: t.admin, id: ext.userId, external: true });
    expect(await failure(t.client.CreateSnippet({ actor: ext, title: "t", fileName: "a", content: "b" }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
  });
});
