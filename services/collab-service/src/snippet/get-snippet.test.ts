import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext, type TestActor } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_snip_get");
});
afterAll(() => t?.close());

const NOT_FOUND = { status: 404, body: { message: "404 Snippet Not Found" } };
const create = (actor: TestActor, visibility: string, project = "") =>
  t.client.CreateSnippet({ actor, project, title: `${visibility} one`, visibility, fileName: "f.txt", content: "x" });
const get = (actor: TestActor, snippetId: number | string | bigint, project = "") =>
  t.client.GetSnippet({ actor, snippetId: Number(snippetId), project, forChange: false });

describe("GetSnippet", () => {
  it("shows personal snippets by visibility: private to author and admins, internal to signed-in non-external users, public to all", async () => {
    const author = await t.user();
    const outsider = await t.user();
    const ext = await t.user();
    await t.identity.UpdateUser({ actor: t.admin, id: ext.userId, external: true });
    const priv = await create(author, "private");
    const internal = await create(author, "internal");
    const pub = await create(author, "public");
    const matrix: [TestActor, boolean, boolean, boolean][] = [
      [t.anonymous, false, false, true],
      [outsider, false, true, true],
      [ext, false, false, true],
      [author, true, true, true],
      [t.admin, true, true, true],
    ];
    for (const [actor, seesPrivate, seesInternal, seesPublic] of matrix) {
      for (const [s, sees] of [
        [priv, seesPrivate],
        [internal, seesInternal],
        [pub, seesPublic],
      ] as const) {
        if (sees) expect((await get(actor, s.id)).id).toBe(s.id);
        else expect(await failure(get(actor, s.id))).toEqual(NOT_FOUND);
      }
    }
  });

  it("shows project snippets to those who read the project: members see private ones", async () => {
    const project = await t.project({ visibility: "public" });
    const reporter = await t.user();
    const guest = await t.user();
    const outsider = await t.user();
    await t.member("project", project.id, reporter, 20);
    await t.member("project", project.id, guest, 10);
    const priv = await create(reporter, "private", String(project.id));
    const pub = await create(reporter, "public", String(project.id));
    expect(await get(guest, priv.id, project.path)).toMatchObject({ id: priv.id, projectId: project.id, projectPath: project.path });
    expect(await failure(get(outsider, priv.id, String(project.id)))).toEqual(NOT_FOUND);
    expect(await failure(get(t.anonymous, priv.id))).toEqual(NOT_FOUND);
    expect((await get(t.anonymous, pub.id, String(project.id))).id).toBe(pub.id);
    // Through /snippets/:id too, with the project's path for its URLs.
    expect(await get(guest, priv.id)).toMatchObject({ projectPath: project.path });
    // Another project's route does not find it.
    const other = await t.project({ visibility: "public" });
    expect(await failure(get(t.admin, pub.id, String(other.id)))).toEqual(NOT_FOUND);
  });

  it("hides the snippets of a private project, even public ones, from outsiders", async () => {
    const project = await t.project({ visibility: "private" });
    const pub = await create(t.admin, "public", String(project.id));
    const outsider = await t.user();
    expect(await failure(get(outsider, pub.id, String(project.id)))).toEqual({ status: 404, body: { message: "404 Project Not Found" } });
    expect(await failure(get(outsider, pub.id))).toEqual(NOT_FOUND);
    expect(await failure(get(outsider, 999999999))).toEqual(NOT_FOUND);
  });
});
