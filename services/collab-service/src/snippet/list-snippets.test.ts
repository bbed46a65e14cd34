import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type CollabTestContext, type TestActor } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_snip_list");
});
afterAll(() => t?.close());

const create = (actor: TestActor, title: string, visibility: string, project = "") =>
  t.client.CreateSnippet({ actor, project, title, visibility, fileName: "f.txt", content: "x" });
const titles = async (actor: TestActor, scope: string, project = "", perPage = 100) =>
  (await t.client.ListSnippets({ actor, scope, project, page: { page: 1, perPage } })).snippets.map((s) => s.title);

describe("ListSnippets", () => {
  it("lists mine, public, all and a project's snippets as GitLab's finder does, newest first", async () => {
    const alice = await t.user();
    const bob = await t.user();
    const pub = await t.project({ visibility: "public" });
    const priv = await t.project({ visibility: "private" });
    await t.member("project", priv.id, alice, 20);
    await create(alice, "a-private", "private");
    await create(alice, "a-internal", "internal");
    await create(alice, "a-public", "public");
    await create(alice, "a-proj-private", "private", String(priv.id));
    await create(t.admin, "root-pub-private", "private", String(pub.id));
    await create(t.admin, "root-pub-public", "public", String(pub.id));
    await create(bob, "b-private", "private");

    expect(await titles(alice, "mine")).toEqual(["a-proj-private", "a-public", "a-internal", "a-private"]);
    // Bob lost nothing by not being in the private project, and sees only his own.
    expect(await titles(bob, "mine")).toEqual(["b-private"]);
    const publicOnes = await titles(bob, "public");
    expect(publicOnes).toContain("a-public");
    expect(publicOnes).not.toContain("root-pub-public");
    expect(publicOnes).not.toContain("a-internal");

    const bobAll = await titles(bob, "all");
    expect(bobAll).toEqual(expect.arrayContaining(["b-private", "root-pub-public", "a-public", "a-internal"]));
    expect(bobAll).not.toContain("a-private");
    expect(bobAll).not.toContain("a-proj-private");
    expect(bobAll).not.toContain("root-pub-private");
    const aliceAll = await titles(alice, "all");
    expect(aliceAll).toContain("a-proj-private");
    const adminAll = await titles(t.admin, "all");
    expect(adminAll).toEqual(expect.arrayContaining(["a-private", "b-private", "a-proj-private", "root-pub-private"]));

    expect(await titles(bob, "project", String(pub.id))).toEqual(["root-pub-public"]);
    expect(await titles(t.anonymous, "project", String(pub.id))).toEqual(["root-pub-public"]);
    expect(await titles(t.admin, "project", pub.path)).toEqual(["root-pub-public", "root-pub-private"]);
    expect(await titles(alice, "project", String(priv.id))).toEqual(["a-proj-private"]);
  });

  it("pages with totals", async () => {
    const carol = await t.user();
    for (const n of [1, 2, 3]) await create(carol, `c${n}`, "private");
    const page = await t.client.ListSnippets({ actor: carol, scope: "mine", page: { page: 2, perPage: 2 } });
    expect(page.snippets.map((s) => s.title)).toEqual(["c1"]);
    expect(page.pageInfo).toMatchObject({ total: 3, page: 2, perPage: 2 });
  });
});
