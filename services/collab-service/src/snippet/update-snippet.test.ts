import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext, type TestActor } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_snip_update");
});
afterAll(() => t?.close());

const ref = (actor: TestActor, snippetId: number | string | bigint, project = "") => ({ actor, snippetId: Number(snippetId), project, forChange: true });
const f = (action: string, filePath: string, content?: string, previousPath = "") => ({ action, filePath, previousPath, content });
const raw = async (actor: TestActor, id: number | string | bigint, filePath: string) =>
  (await t.client.ReadSnippetRaw({ ref: ref(actor, id), gitRef: "main", filePath })).content.toString();

describe("UpdateSnippet", () => {
  it("changes metadata and commits file actions", async () => {
    const author = await t.user();
    const s = await t.client.CreateSnippet({ actor: author, title: "t", visibility: "private", files: [f("create", "a.txt", "a"), f("create", "b.txt", "b")] });
    const u = await t.client.UpdateSnippet({
      ref: ref(author, s.id),
      title: "t2",
      description: "now described",
      visibility: "public",
      files: [f("update", "a.txt", "A"), f("delete", "b.txt"), f("move", "c.txt", undefined, "a.txt"), f("create", "d.txt", "d")],
    });
    expect(u).toMatchObject({ title: "t2", description: "now described", visibility: "public", files: ["c.txt", "d.txt"], fileName: "c.txt" });
    expect(await raw(author, s.id, "c.txt")).toBe("A");
    expect(new Date(u.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(s.updatedAt).getTime());
  });

  it("takes the deprecated content/file_name for a single-file snippet only", async () => {
    const author = await t.user();
    const one = await t.client.CreateSnippet({ actor: author, title: "one", fileName: "x.txt", content: "x" });
    const u = await t.client.UpdateSnippet({ ref: ref(author, one.id), content: "y", fileName: "y.txt" });
    expect(u.files).toEqual(["y.txt"]);
    expect(await raw(author, one.id, "y.txt")).toBe("y");
    expect((await t.client.UpdateSnippet({ ref: ref(author, one.id), fileName: "z.txt" })).files).toEqual(["z.txt"]);
    const two = await t.client.CreateSnippet({ actor: author, title: "two", files: [f("create", "a", "a"), f("create", "b", "b")] });
    expect(await failure(t.client.UpdateSnippet({ ref: ref(author, two.id), content: "c" }))).toEqual({
      status: 400,
      body: { message: { error: "To update Snippets with multiple files, you must use the `files` parameter" } },
    });
  });

  it("changes nothing when the commit is refused", async () => {
    const author = await t.user();
    const s = await t.client.CreateSnippet({ actor: author, title: "keep", files: [f("create", "a.txt", "a")] });
    expect(await failure(t.client.UpdateSnippet({ ref: ref(author, s.id), title: "lost", files: [f("update", "missing.txt", "x")] }))).toEqual({
      status: 400,
      body: { message: { error: "Repository Error updating the snippet" } },
    });
    expect((await t.client.GetSnippet(ref(author, s.id))).title).toBe("keep");
  });

  it("lets the author, project Maintainers and admins change a snippet; finds personal ones among the caller's own only", async () => {
    const author = await t.user();
    const other = await t.user();
    const personal = await t.client.CreateSnippet({ actor: author, title: "p", visibility: "public", fileName: "a", content: "a" });
    expect(await failure(t.client.UpdateSnippet({ ref: ref(other, personal.id), title: "x" }))).toEqual({
      status: 404,
      body: { message: "404 Snippet Not Found" },
    });
    const project = await t.project({ visibility: "public" });
    const developer = await t.user();
    const maintainer = await t.user();
    await t.member("project", project.id, author, 20);
    await t.member("project", project.id, developer, 30);
    await t.member("project", project.id, maintainer, 40);
    const ps = await t.client.CreateSnippet({ actor: author, project: String(project.id), title: "ps", visibility: "public", fileName: "a", content: "a" });
    expect(await failure(t.client.UpdateSnippet({ ref: ref(developer, ps.id, String(project.id)), title: "x" }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    expect((await t.client.UpdateSnippet({ ref: ref(maintainer, ps.id, String(project.id)), title: "by maintainer" })).title).toBe("by maintainer");
    expect((await t.client.UpdateSnippet({ ref: ref(author, ps.id, String(project.id)), title: "by author" })).title).toBe("by author");
    expect((await t.client.UpdateSnippet({ ref: ref(t.admin, ps.id, String(project.id)), title: "by admin" })).title).toBe("by admin");
  });
});
