import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => {
  f = await identityFixture();
  for (const name of ["anna", "bert", "cleo"]) await f.user(name);
});
afterAll(() => f?.close());

describe("ListUsers", () => {
  it("finds by exact username case-insensitively and by search", async () => {
    expect((await f.c.ListUsers({ actor: f.anonymous, username: "BERT" })).users.map((u) => u.username)).toEqual(["bert"]);
    expect((await f.c.ListUsers({ actor: f.admin, search: "cle" })).users.map((u) => u.username)).toEqual(["cleo"]);
  });

  it("pages newest first by default and reports the total", async () => {
    const r = await f.c.ListUsers({ actor: f.admin, page: { page: 1, perPage: 2 } });
    expect(Number(r.pageInfo!.total)).toBe(4); // root + 3
    expect(r.users.map((u) => u.username)).toEqual(["cleo", "bert"]);
    const asc = await f.c.ListUsers({ actor: f.admin, orderBy: "username", sort: "asc" });
    expect(asc.users.map((u) => u.username)).toEqual(["anna", "bert", "cleo", "root"]);
  });

  it("filters administrators only for administrators", async () => {
    expect((await f.c.ListUsers({ actor: f.admin, admins: true })).users.map((u) => u.username)).toEqual(["root"]);
  });

  it("finds a user by provider and extern_uid for administrators, and returns their identities", async () => {
    const dora = await f.user("dora");
    await f.c.UpdateUser({ actor: f.admin, id: dora.userId, provider: "ldapmain", externUid: "uid=dora,ou=people" });
    const found = await f.c.ListUsers({ actor: f.admin, provider: "ldapmain", externUid: "UID=dora,ou=people" });
    expect(found.users.map((u) => [u.username, u.identities])).toEqual([["dora", [{ provider: "ldapmain", externUid: "uid=dora,ou=people" }]]]);
    expect((await f.c.ListUsers({ actor: f.admin, provider: "github", externUid: "uid=dora,ou=people" })).users).toEqual([]);
  });
});

describe("ListUsers filters of document 3", () => {
  it("searches fuzzily (words of 3+ characters anywhere, shorter only whole), drops a leading @, orders exact matches first", async () => {
    const a = await f.user("zed");
    const b = await f.user("zedekiah");
    await f.c.UpdateUser({ actor: f.admin, id: b.userId, name: "Zed Smith", profile: { publicEmail: "pub@example.org" } });
    await f.c.UpdateUser({ actor: f.admin, id: a.userId, name: "Alpha Omega" });
    expect((await f.c.ListUsers({ actor: a, search: "@zed" })).users.map((u) => u.username)).toEqual(["zed", "zedekiah"]);
    expect((await f.c.ListUsers({ actor: a, search: "ze" })).users.map((u) => u.username)).toEqual([]);
    expect((await f.c.ListUsers({ actor: a, search: "smith zed" })).users.map((u) => u.username)).toEqual(["zedekiah"]);
    expect((await f.c.ListUsers({ actor: a, search: "PUB@example.org" })).users.map((u) => u.username)).toEqual(["zedekiah"]);
    expect((await f.c.ListUsers({ actor: a, publicEmail: "pub@example.org" })).users.map((u) => u.username)).toEqual(["zedekiah"]);
    // The primary e-mail only for administrators.
    expect((await f.c.ListUsers({ actor: a, search: "zed@example.com" })).users).toEqual([]);
    expect((await f.c.ListUsers({ actor: f.admin, search: "zed@example.com" })).users.map((u) => u.username)).toEqual(["zed"]);
  });

  it("filters by state, type, external, two-factor and projects; hides blocked users from non-administrators", async () => {
    const e = await f.user("ext");
    await f.c.UpdateUser({ actor: f.admin, id: e.userId, external: true });
    const blocked = await f.user("blk");
    await f.c.ChangeUserState({ actor: f.admin, id: blocked.userId, action: "block" });
    const bot = await f.user("botty");
    await f.deps.prisma.user.update({ where: { id: bot.userId }, data: { userType: "project_bot", bot: true } });
    const ghost = await f.user("ghosty");
    await f.deps.prisma.user.update({ where: { id: ghost.userId }, data: { userType: "ghost" } });
    const names = async (req: Record<string, unknown>, actor = f.admin) =>
      (await f.c.ListUsers({ actor, ...req, page: { perPage: 100 } })).users.map((u) => u.username);
    expect(await names({ blocked: true })).toEqual(["blk"]);
    expect(await names({ blocked: true }, e)).toEqual([]);
    expect(await names({ excludeActive: true })).toEqual(["blk"]);
    expect(await names({})).toContain("blk");
    expect(await names({}, e)).not.toContain("blk");
    expect(await names({ external: true })).toEqual(["ext"]);
    expect(await names({ excludeExternal: true })).not.toContain("ext");
    expect(await names({ humans: true })).not.toContain("botty");
    expect(await names({ excludeHumans: true })).toEqual(["ghosty", "botty"]);
    expect(await names({ withoutProjectBots: true })).not.toContain("botty");
    expect(await names({ excludeInternal: true })).not.toContain("ghosty");
    expect(await names({ active: true })).not.toContain("ghosty");
    expect(await names({ twoFactor: "enabled" })).toEqual([]);
    expect(await names({ twoFactor: "disabled" })).toContain("ext");
    await f.c.CreateProject({ actor: e, name: "has-one" });
    expect(await names({ withoutProjects: true })).not.toContain("ext");
    expect(await names({ withoutProjects: true })).toContain("blk");
  });
});
