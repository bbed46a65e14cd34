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
