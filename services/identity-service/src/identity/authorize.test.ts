import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("Authorize", () => {
  it("answers per action: 404 when invisible, 403 when the role is too low", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "auth" });
    const reporter = await f.user();
    await f.c.AddMember({ actor: owner, source: { kind: "project", idOrPath: String(p.id) }, userId: reporter.userId, accessLevel: 20 });
    const outsider = await f.user();
    const ask = (actor: { userId: number; isAdmin: boolean }, action: string) => f.c.Authorize({ actor, action, project: String(p.id) });
    expect((await ask(reporter, "read_repository")).accessLevel).toBe(20);
    expect(await failure(ask(reporter, "push_code"))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    expect(await failure(ask(outsider, "read_project"))).toEqual({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await ask(owner, "remove_project")).project?.id).toBe(p.id);
    expect((await ask(f.admin, "push_code")).project?.id).toBe(p.id);
    expect((await failure(ask(owner, "fly"))).status).toBe(400);
  });

  it("keeps a private project's code from Guests (403) but not a public one's", async () => {
    const owner = await f.user();
    const guest = await f.user();
    const ask = (project: number, action: string) => f.c.Authorize({ actor: guest, action, project: String(project) });
    for (const visibility of ["private", "public"]) {
      const p = await f.c.CreateProject({ actor: owner, name: `code-${visibility}`, visibility });
      await f.c.AddMember({ actor: owner, source: { kind: "project", idOrPath: String(p.id) }, userId: guest.userId, accessLevel: 10 });
      expect((await ask(p.id, "read_project")).accessLevel).toBe(10);
      if (visibility === "private") {
        expect(await failure(ask(p.id, "read_repository"))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
        expect((await failure(ask(p.id, "download_code"))).status).toBe(403);
      } else {
        expect((await ask(p.id, "download_code")).accessLevel).toBe(10);
      }
    }
  });

  it("answers CI actions: jobs readable as code is, builds and pipelines for Developers, pipeline deletion for Owners", async () => {
    const owner = await f.user();
    const ask = (actor: { userId: number; isAdmin: boolean }, project: number, action: string) => f.c.Authorize({ actor, action, project: String(project) });
    const priv = await f.c.CreateProject({ actor: owner, name: "ci-private", visibility: "private" });
    const pub = await f.c.CreateProject({ actor: owner, name: "ci-public", visibility: "public" });
    const members: Record<number, { userId: number; isAdmin: boolean }> = {};
    for (const level of [10, 20, 30, 40]) {
      members[level] = await f.user();
      for (const p of [priv, pub]) {
        await f.c.AddMember({ actor: owner, source: { kind: "project", idOrPath: String(p.id) }, userId: members[level].userId, accessLevel: level });
      }
    }
    expect(await failure(ask(members[10]!, priv.id, "read_build"))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    expect((await ask(members[20]!, priv.id, "read_build")).accessLevel).toBe(20);
    expect((await ask(f.anonymous, pub.id, "read_build")).project?.id).toBe(pub.id);
    expect((await ask(members[10]!, pub.id, "read_build")).accessLevel).toBe(10);
    for (const action of ["update_build", "create_pipeline"]) {
      expect((await failure(ask(members[20]!, pub.id, action))).status).toBe(403);
      expect((await ask(members[30]!, priv.id, action)).accessLevel).toBe(30);
    }
    expect((await failure(ask(members[40]!, priv.id, "destroy_pipeline"))).status).toBe(403);
    expect((await ask(owner, priv.id, "destroy_pipeline")).accessLevel).toBe(50);
    expect((await failure(ask(f.anonymous, priv.id, "read_build"))).status).toBe(404);
  });

  it("answers group actions by creation levels", async () => {
    const owner = await f.user();
    const g = await f.c.CreateGroup({ actor: owner, name: "AZ", path: "az", visibility: "public" });
    const dev = await f.user();
    await f.c.AddMember({ actor: owner, source: { kind: "group", idOrPath: "az" }, userId: dev.userId, accessLevel: 30 });
    expect((await f.c.Authorize({ actor: dev, action: "create_projects", group: String(g.id) })).accessLevel).toBe(30);
    expect((await failure(f.c.Authorize({ actor: dev, action: "create_subgroup", group: "az" }))).status).toBe(403);
    expect((await f.c.Authorize({ actor: f.anonymous, action: "read_group", group: "az" })).group?.fullPath).toBe("az");
  });
});
