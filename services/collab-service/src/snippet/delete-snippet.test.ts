import { status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext, type TestActor } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_snip_delete");
});
afterAll(() => t?.close());

const ref = (actor: TestActor, snippetId: number | string | bigint, project = "") => ({ actor, snippetId: Number(snippetId), project, forChange: true });

describe("DeleteSnippet", () => {
  it("removes the snippet, its notes, award emoji and repository", async () => {
    const author = await t.user();
    const s = await t.client.CreateSnippet({ actor: author, title: "bye", visibility: "public", fileName: "a", content: "a" });
    const id = Number(s.id);
    const { prisma } = t.svc.deps;
    const note = await prisma.note.create({
      data: { noteableType: "Snippet", noteableId: id, authorId: author.userId, body: "hi", discussionId: "d".repeat(40) },
    });
    await prisma.awardEmoji.create({ data: { awardableType: "Snippet", awardableId: id, userId: author.userId, name: "thumbsup" } });
    await prisma.awardEmoji.create({ data: { awardableType: "Note", awardableId: note.id, userId: author.userId, name: "thumbsup" } });
    const other = await t.user();
    expect(await failure(t.client.DeleteSnippet(ref(other, id)))).toEqual({ status: 404, body: { message: "404 Snippet Not Found" } });
    await t.client.DeleteSnippet(ref(author, id));
    expect(await prisma.snippet.count({ where: { id } })).toBe(0);
    expect(await prisma.note.count({ where: { noteableType: "Snippet", noteableId: id } })).toBe(0);
    expect(
      await prisma.awardEmoji.count({
        where: {
          OR: [
            { awardableType: "Snippet", awardableId: id },
            { awardableId: note.id, awardableType: "Note" },
          ],
        },
      }),
    ).toBe(0);
    expect(await t.svc.deps.repo.ListSnippetFiles({ snippetId: id, ref: "" }).catch((e: { code: number }) => e.code)).toBe(status.NOT_FOUND);
    expect(await failure(t.client.GetSnippet(ref(author, id)))).toEqual({ status: 404, body: { message: "404 Snippet Not Found" } });
  });

  it("refuses a project Developer who is not the author", async () => {
    const project = await t.project({ visibility: "public" });
    const developer = await t.user();
    await t.member("project", project.id, developer, 30);
    const s = await t.client.CreateSnippet({ actor: t.admin, project: String(project.id), title: "p", visibility: "public", fileName: "a", content: "a" });
    expect(await failure(t.client.DeleteSnippet(ref(developer, s.id, String(project.id))))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    expect(await failure(t.client.DeleteSnippet(ref(t.anonymous, s.id, String(project.id))))).toMatchObject({ status: 401 });
  });
});
