import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => {
  f = await identityFixture();
});
afterAll(() => f?.close());

describe("custom attributes and memberships", () => {
  it("sets, reads, lists, filters and deletes user, group and project attributes (administrators only)", async () => {
    const u = await f.user("cara");
    const other = await f.user("cody");
    expect(await f.c.SetCustomAttribute({ actor: f.admin, kind: "user", id: "cara", key: "team", value: "red" })).toMatchObject({ key: "team", value: "red" });
    expect(await f.c.SetCustomAttribute({ actor: f.admin, kind: "user", id: String(u.userId), key: "team", value: "blue" })).toMatchObject({ value: "blue" });
    await f.c.SetCustomAttribute({ actor: f.admin, kind: "user", id: String(other.userId), key: "team", value: "red" });
    await f.c.SetCustomAttribute({ actor: f.admin, kind: "user", id: String(u.userId), key: "area", value: "ops" });
    const list = await f.c.ListCustomAttributes({ actor: f.admin, kind: "user", id: String(u.userId) });
    expect(list.attributes.map((a) => [a.key, a.value])).toEqual([
      ["area", "ops"],
      ["team", "blue"],
    ]);
    const many = await f.c.ListCustomAttributes({ actor: f.admin, kind: "user", ids: [u.userId, other.userId] });
    expect(many.attributes.map((a) => [Number(a.sourceId), a.key])).toEqual([
      [u.userId, "area"],
      [u.userId, "team"],
      [other.userId, "team"],
    ]);
    const filtered = await f.c.ListUsers({ actor: f.admin, customAttributes: [{ key: "team", value: "blue" }] });
    expect(filtered.users.map((x) => x.username)).toEqual(["cara"]);
    // Non-administrators' filters are ignored, as GitLab's CustomAttributesFilter.
    expect((await f.c.ListUsers({ actor: other, customAttributes: [{ key: "team", value: "blue" }] })).users.length).toBeGreaterThan(1);
    expect(await failure(f.c.GetCustomAttribute({ actor: f.admin, kind: "user", id: String(u.userId), key: "nope" }))).toEqual({
      status: 404,
      body: { message: "404 Not found" },
    });
    expect(await failure(f.c.GetCustomAttribute({ actor: other, kind: "user", id: String(u.userId), key: "team" }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    expect(await failure(f.c.GetCustomAttribute({ actor: f.admin, kind: "user", id: "999999", key: "team" }))).toEqual({
      status: 404,
      body: { message: "404 Not Found" },
    });
    await f.c.DeleteCustomAttribute({ actor: f.admin, kind: "user", id: String(u.userId), key: "team" });
    expect(await failure(f.c.DeleteCustomAttribute({ actor: f.admin, kind: "user", id: String(u.userId), key: "team" }))).toEqual({
      status: 404,
      body: { message: "404 Custom attribute Not Found" },
    });

    const g = await f.c.CreateGroup({ actor: u, name: "Attrs", path: "attrs", visibility: "private" });
    const p = await f.c.CreateProject({ actor: u, name: "attr-project" });
    await f.c.SetCustomAttribute({ actor: f.admin, kind: "group", id: "attrs", key: "k", value: "g" });
    await f.c.SetCustomAttribute({ actor: f.admin, kind: "project", id: `cara/attr-project`, key: "k", value: "p" });
    expect((await f.c.GetCustomAttribute({ actor: f.admin, kind: "group", id: String(g.id), key: "k" })).value).toBe("g");
    expect((await f.c.GetCustomAttribute({ actor: f.admin, kind: "project", id: String(p.id), key: "k" })).value).toBe("p");
    // /groups' custom_attributes filter: administrators only.
    expect((await f.c.ListGroups({ actor: f.admin, customAttributes: [{ key: "k", value: "g" }] })).groups.map((x) => x.path)).toEqual(["attrs"]);
    expect((await f.c.ListGroups({ actor: f.admin, customAttributes: [{ key: "k", value: "p" }] })).groups).toEqual([]);
    // /projects' custom_attributes filter: administrators only.
    const byAttr = await f.c.ListProjects({ actor: f.admin, customAttributes: [{ key: "k", value: "p" }] });
    expect(byAttr.projects.map((x) => Number(x.id))).toEqual([Number(p.id)]);
    expect((await f.c.ListProjects({ actor: f.admin, customAttributes: [{ key: "k", value: "other" }] })).projects).toEqual([]);
    expect((await f.c.ListProjects({ actor: u, customAttributes: [{ key: "k", value: "other" }] })).projects.length).toBeGreaterThan(0);
    // A private group the caller cannot see is missing, before any administrator check.
    expect(await failure(f.c.ListCustomAttributes({ actor: other, kind: "group", id: String(g.id) }))).toEqual({
      status: 404,
      body: { message: "404 Group Not Found" },
    });
  });

  it("lists a user's memberships by type with source names", async () => {
    const owner = await f.user("mona");
    const g = await f.c.CreateGroup({ actor: owner, name: "Member Group", path: "member-group" });
    const p = await f.c.CreateProject({ actor: owner, name: "member-project" });
    const m = await f.user("milo");
    await f.c.AddMember({ actor: owner, source: { kind: "group", idOrPath: String(g.id) }, userId: m.userId, accessLevel: 30 });
    await f.c.AddMember({ actor: owner, source: { kind: "project", idOrPath: String(p.id) }, userId: m.userId, accessLevel: 20 });
    const all = await f.c.ListUserMemberships({ actor: f.admin, userId: m.userId });
    expect(all.memberships.map((x) => ({ ...x, sourceId: Number(x.sourceId) }))).toEqual([
      { sourceId: Number(g.id), sourceName: "Member Group", sourceType: "Namespace", accessLevel: 30 },
      { sourceId: Number(p.id), sourceName: "member-project", sourceType: "Project", accessLevel: 20 },
    ]);
    expect((await f.c.ListUserMemberships({ actor: f.admin, userId: m.userId, type: "Project" })).memberships.map((x) => x.sourceType)).toEqual(["Project"]);
    expect((await failure(f.c.ListUserMemberships({ actor: m, userId: m.userId }))).status).toBe(403);
    expect((await failure(f.c.ListUserMemberships({ actor: f.admin, userId: 999999 }))).status).toBe(404);
  });
});
