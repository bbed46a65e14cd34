import { status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type CollabTestContext } from "../../test/support.ts";
import { forgetProjectSnippets } from "./project-destroy.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_snip_projdel");
});
afterAll(() => t?.close());

describe("forgetProjectSnippets", () => {
  it("drops a project's snippets with their notes, award emoji and repositories, and nothing else", async () => {
    const gone = await t.project();
    const kept = await t.project();
    const args = { title: "s", visibility: "public", fileName: "a", content: "a" };
    const a = await t.client.CreateSnippet({ actor: t.admin, project: String(gone.id), ...args });
    const b = await t.client.CreateSnippet({ actor: t.admin, project: String(kept.id), ...args });
    const personal = await t.client.CreateSnippet({ actor: t.admin, ...args });
    const { prisma } = t.svc.deps;
    const note = await prisma.note.create({
      data: { noteableType: "Snippet", noteableId: Number(a.id), projectId: gone.id, authorId: t.admin.userId, body: "n", discussionId: "e".repeat(40) },
    });
    await prisma.awardEmoji.create({ data: { awardableType: "Snippet", awardableId: Number(a.id), userId: t.admin.userId, name: "tada" } });
    await prisma.awardEmoji.create({ data: { awardableType: "Note", awardableId: note.id, userId: t.admin.userId, name: "tada" } });

    await forgetProjectSnippets(t.svc.deps, gone.id);
    await forgetProjectSnippets(t.svc.deps, gone.id);

    expect((await prisma.snippet.findMany({ where: { id: { in: [a.id, b.id, personal.id].map(Number) } } })).map((s) => s.id).sort()).toEqual(
      [Number(b.id), Number(personal.id)].sort(),
    );
    expect(await prisma.note.count({ where: { id: note.id } })).toBe(0);
    expect(
      await prisma.awardEmoji.count({
        where: {
          OR: [
            { awardableType: "Snippet", awardableId: Number(a.id) },
            { awardableType: "Note", awardableId: note.id },
          ],
        },
      }),
    ).toBe(0);
    expect(await t.svc.deps.repo.ListSnippetFiles({ snippetId: Number(a.id), ref: "" }).catch((e: { code: number }) => e.code)).toBe(status.NOT_FOUND);
    expect((await t.svc.deps.repo.ListSnippetFiles({ snippetId: Number(b.id), ref: "" })).files.map((f) => f.path)).toEqual(["a"]);
  });
});
