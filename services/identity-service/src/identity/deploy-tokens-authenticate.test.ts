import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("AuthenticateDeployToken", () => {
  it("accepts a project token with its username on its project only", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "a1" });
    const other = await f.c.CreateProject({ actor: owner, name: "a2" });
    const t = await f.c.CreateDeployToken({ actor: owner, project: String(p.id), name: "t", scopes: ["read_repository"] });
    const ok = await f.c.AuthenticateDeployToken({ token: t.token, username: t.username, project: p.pathWithNamespace });
    expect(ok.project?.id).toBe(p.id);
    expect(ok.deployToken).toMatchObject({ id: t.id, scopes: ["read_repository"], token: "" });
    expect(await failure(f.c.AuthenticateDeployToken({ token: t.token, username: t.username, project: other.pathWithNamespace }))).toEqual({
      status: 401,
      body: { message: "401 Unauthorized" },
    });
    expect((await failure(f.c.AuthenticateDeployToken({ token: t.token, username: "someone", project: String(p.id) }))).status).toBe(401);
    expect((await failure(f.c.AuthenticateDeployToken({ token: `${t.token}x`, username: t.username, project: String(p.id) }))).status).toBe(401);
  });

  it("reaches every project of a group token's group and subgroups, not others", async () => {
    const owner = await f.user();
    const g = await f.c.CreateGroup({ actor: owner, name: "ag", path: `ag-${owner.userId}` });
    const sub = await f.c.CreateGroup({ actor: owner, name: "sub", path: "sub", parentId: g.id });
    const inSub = await f.c.CreateProject({ actor: owner, name: "deep", namespaceId: sub.id });
    const outside = await f.c.CreateProject({ actor: owner, name: "mine" });
    const t = await f.c.CreateDeployToken({ actor: owner, group: String(g.id), name: "g", scopes: ["read_repository"] });
    expect((await f.c.AuthenticateDeployToken({ token: t.token, username: t.username, project: inSub.pathWithNamespace })).project?.id).toBe(inSub.id);
    expect((await failure(f.c.AuthenticateDeployToken({ token: t.token, username: t.username, project: outside.pathWithNamespace }))).status).toBe(401);
    // A subgroup's token does not reach its parent's projects.
    const top = await f.c.CreateProject({ actor: owner, name: "top", namespaceId: g.id });
    const st = await f.c.CreateDeployToken({ actor: owner, group: String(sub.id), name: "s", scopes: ["read_repository"] });
    expect((await failure(f.c.AuthenticateDeployToken({ token: st.token, username: st.username, project: top.pathWithNamespace }))).status).toBe(401);
  });

  it("refuses expired and revoked tokens", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "a3" });
    const expired = await f.c.CreateDeployToken({ actor: owner, project: String(p.id), name: "e", scopes: ["read_repository"], expiresAt: "2001-01-01" });
    expect((await failure(f.c.AuthenticateDeployToken({ token: expired.token, username: expired.username, project: String(p.id) }))).status).toBe(401);
    const revoked = await f.c.CreateDeployToken({ actor: owner, project: String(p.id), name: "r", scopes: ["read_repository"] });
    await f.deps.prisma.deployToken.update({ where: { id: Number(revoked.id) }, data: { revoked: true } });
    expect((await failure(f.c.AuthenticateDeployToken({ token: revoked.token, username: revoked.username, project: String(p.id) }))).status).toBe(401);
  });

  it("goes with its project or group: deleted holders leave nothing that authenticates or is listed", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "a4" });
    const g = await f.c.CreateGroup({ actor: owner, name: "gone", path: `gone-${owner.userId}` });
    const inGroup = await f.c.CreateProject({ actor: owner, name: "a5", namespaceId: g.id });
    const pt = await f.c.CreateDeployToken({ actor: owner, project: String(p.id), name: "p", scopes: ["read_repository"] });
    const gt = await f.c.CreateDeployToken({ actor: owner, group: String(g.id), name: "g", scopes: ["read_repository"] });
    await f.c.DeleteProject({ actor: f.admin, idOrPath: String(p.id) });
    await f.c.DeleteGroup({ actor: f.admin, idOrPath: String(g.id) });
    expect((await failure(f.c.AuthenticateDeployToken({ token: gt.token, username: gt.username, project: String(inGroup.id) }))).status).toBe(401);
    const all = await f.c.ListDeployTokens({ actor: f.admin, page: { page: 1, perPage: 100 } });
    expect(all.tokens.map((t) => t.id)).not.toContain(pt.id);
    expect(all.tokens.map((t) => t.id)).not.toContain(gt.id);
  });
});
