import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext, type TestActor } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_snip_raw");
});
afterAll(() => t?.close());

const ref = (actor: TestActor, snippetId: number | string | bigint, project = "") => ({ actor, snippetId: Number(snippetId), project, forChange: false });
const f = (filePath: string, content: string) => ({ action: "create", filePath, previousPath: "", content });

describe("ReadSnippetRaw", () => {
  it("answers the first file, or a file at a ref", async () => {
    const author = await t.user();
    const s = await t.client.CreateSnippet({ actor: author, title: "r", visibility: "private", files: [f("z/b.txt", "second"), f("a.txt", "first")] });
    const first = await t.client.ReadSnippetRaw({ ref: ref(author, s.id) });
    expect(first).toMatchObject({ fileName: "a.txt" });
    expect(first.content.toString()).toBe("first");
    const nested = await t.client.ReadSnippetRaw({ ref: ref(author, s.id), gitRef: "main", filePath: "z/b.txt" });
    expect(nested.content.toString()).toBe("second");
    expect(nested.fileName).toBe("b.txt");
    expect(await failure(t.client.ReadSnippetRaw({ ref: ref(author, s.id), gitRef: "nope", filePath: "a.txt" }))).toEqual({
      status: 404,
      body: { message: "404 Reference Not Found" },
    });
    expect(await failure(t.client.ReadSnippetRaw({ ref: ref(author, s.id), gitRef: "main", filePath: "c.txt" }))).toEqual({
      status: 404,
      body: { message: "404 File Not Found" },
    });
    // An older commit still has the old content.
    const before = (await t.svc.deps.repo.ListSnippetFiles({ snippetId: Number(s.id), ref: "" })).commitId;
    await t.client.UpdateSnippet({
      ref: { ...ref(author, s.id), forChange: true },
      files: [{ action: "update", filePath: "a.txt", previousPath: "", content: "changed" }],
    });
    expect((await t.client.ReadSnippetRaw({ ref: ref(author, s.id), gitRef: before, filePath: "a.txt" })).content.toString()).toBe("first");
    expect((await t.client.ReadSnippetRaw({ ref: ref(author, s.id) })).content.toString()).toBe("changed");
    expect(await failure(t.client.ReadSnippetRaw({ ref: ref(t.anonymous, s.id) }))).toEqual({ status: 404, body: { message: "404 Snippet Not Found" } });
  });
});
