import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("CreateDeployToken", () => {
  it("creates a project token shown once, stores only its digest, defaults the username and publishes deploy_token_create", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "dt" });
    const t = await f.c.CreateDeployToken({ actor: owner, project: String(p.id), name: "ci", scopes: ["read_registry", "read_repository"] });
    expect(t.token).toMatch(/^gldt-[A-Za-z0-9_-]{20}$/);
    expect(t).toMatchObject({
      name: "ci",
      username: `gitlab+deploy-token-${t.id}`,
      scopes: ["read_repository", "read_registry"],
      revoked: false,
      expired: false,
      expiresAt: "",
    });
    const row = await f.deps.prisma.deployToken.findUniqueOrThrow({ where: { id: Number(t.id) } });
    expect(JSON.stringify(row)).not.toContain(t.token);
    expect(row.tokenDigest).toMatch(/^[0-9a-f]{64}$/);
    const got = await f.c.GetDeployToken({ actor: owner, project: String(p.id), tokenId: t.id });
    expect(got.token).toBe("");
    const events = await f.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.identity.deploy_token_create" } });
    const payload = events.map((e) => e.payload as Record<string, unknown>).find((e) => e.deploy_token_id === Number(t.id));
    expect(payload).toMatchObject({
      event_name: "deploy_token_create",
      project_id: Number(p.id),
      group_id: null,
      actor_id: owner.userId,
      deploy_token_type: "project",
    });
    expect(JSON.stringify(payload)).not.toContain(t.token);
  });

  it("refuses unknown scopes, no scopes, bad usernames and bad dates with GitLab's bodies, writing nothing", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "dtv" });
    const project = String(p.id);
    expect(await failure(f.c.CreateDeployToken({ actor: owner, project, name: "x", scopes: ["api"] }))).toEqual({
      status: 400,
      body: { error: "scopes does not have a valid value" },
    });
    expect(await failure(f.c.CreateDeployToken({ actor: owner, project, name: "x", scopes: [] }))).toEqual({
      status: 400,
      body: { message: "Scopes can't be blank" },
    });
    expect(await failure(f.c.CreateDeployToken({ actor: owner, project, name: "x", scopes: ["read_repository"], username: "a b" }))).toEqual({
      status: 400,
      body: { message: "Username can contain only letters, digits, '_', '-', '+', and '.'" },
    });
    expect(await failure(f.c.CreateDeployToken({ actor: owner, project, name: "x", scopes: [], username: "a b" }))).toEqual({
      status: 400,
      body: { message: "Scopes can't be blank and Username can contain only letters, digits, '_', '-', '+', and '.'" },
    });
    expect(await failure(f.c.CreateDeployToken({ actor: owner, project, name: "x", scopes: ["read_repository"], expiresAt: "soon" }))).toEqual({
      status: 400,
      body: { error: "expires_at is invalid" },
    });
    expect((await f.c.ListDeployTokens({ actor: owner, project })).tokens).toEqual([]);
  });

  it("keeps a given username and expiry", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "dtu" });
    const t = await f.c.CreateDeployToken({
      actor: owner,
      project: String(p.id),
      name: "n",
      scopes: ["read_repository"],
      username: "deployer+1",
      expiresAt: "2000-01-02T00:00:00Z",
    });
    expect(t).toMatchObject({ username: "deployer+1", expiresAt: "2000-01-02T00:00:00.000Z", expired: true });
  });

  it("as GitLab, a token expiring at today's midnight is not expired yet but no longer active", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "dtm" });
    const today = new Date().toISOString().slice(0, 10);
    const t = await f.c.CreateDeployToken({ actor: owner, project: String(p.id), name: "m", scopes: ["read_repository"], expiresAt: today });
    expect(t.expired).toBe(false);
    expect((await f.c.ListDeployTokens({ actor: owner, project: String(p.id), active: true })).tokens).toEqual([]);
  });
});

describe("deploy token permissions", () => {
  it("needs Maintainer: 404 for invisible projects, 403 below Maintainer (anonymous callers too)", async () => {
    const owner = await f.user();
    const dev = await f.user();
    const stranger = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "dtp" });
    await f.c.AddMember({ actor: owner, source: { kind: "project", idOrPath: String(p.id) }, userId: dev.userId, accessLevel: 30 });
    const req = { project: String(p.id), name: "x", scopes: ["read_repository"] };
    expect((await failure(f.c.CreateDeployToken({ actor: stranger, ...req }))).body).toEqual({ message: "404 Project Not Found" });
    expect(await failure(f.c.CreateDeployToken({ actor: dev, ...req }))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    expect((await failure(f.c.ListDeployTokens({ actor: dev, project: String(p.id) }))).status).toBe(403);
    expect((await failure(f.c.ListDeployTokens({ actor: f.anonymous, project: String(p.id) }))).status).toBe(404);
    const pub = await f.c.CreateProject({ actor: owner, name: "dtpub", visibility: "public" });
    expect((await failure(f.c.ListDeployTokens({ actor: f.anonymous, project: String(pub.id) }))).status).toBe(403);
    expect((await f.c.CreateDeployToken({ actor: f.admin, ...req })).name).toBe("x");
  });

  it("lists the instance's tokens for administrators only", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "dta" });
    const t = await f.c.CreateDeployToken({ actor: owner, project: String(p.id), name: "inst", scopes: ["read_repository"] });
    expect((await failure(f.c.ListDeployTokens({ actor: owner }))).status).toBe(403);
    const all = await f.c.ListDeployTokens({ actor: f.admin, page: { page: 1, perPage: 100 } });
    expect(all.tokens.map((x) => x.id)).toContain(t.id);
  });
});

describe("ListDeployTokens / GetDeployToken / DeleteDeployToken", () => {
  it("filters active tokens, keeps projects' and groups' tokens apart, deletes with deploy_token_destroy", async () => {
    const owner = await f.user();
    const g = await f.c.CreateGroup({ actor: owner, name: "dtg", path: `dtg-${owner.userId}` });
    const p = await f.c.CreateProject({ actor: owner, name: "dtl" });
    const project = String(p.id);
    const group = String(g.id);
    const live = await f.c.CreateDeployToken({ actor: owner, project, name: "live", scopes: ["read_repository"] });
    const old = await f.c.CreateDeployToken({ actor: owner, project, name: "old", scopes: ["read_repository"], expiresAt: "2001-01-01" });
    const gt = await f.c.CreateDeployToken({ actor: owner, group, name: "grp", scopes: ["read_repository"] });
    expect(gt.deployTokenType).toBe("group");
    expect((await f.c.ListDeployTokens({ actor: owner, project })).tokens.map((t) => t.name)).toEqual(["live", "old"]);
    expect((await f.c.ListDeployTokens({ actor: owner, project, active: true })).tokens.map((t) => t.name)).toEqual(["live"]);
    expect((await f.c.ListDeployTokens({ actor: owner, project, active: false })).tokens.map((t) => t.name)).toEqual(["live", "old"]);
    expect((await f.c.ListDeployTokens({ actor: owner, group })).tokens.map((t) => t.name)).toEqual(["grp"]);
    // A group's token is not the project's, and the other way round.
    expect(await failure(f.c.GetDeployToken({ actor: owner, project, tokenId: gt.id }))).toEqual({ status: 404, body: { message: "404 Not found" } });
    expect((await failure(f.c.DeleteDeployToken({ actor: owner, group, tokenId: live.id }))).status).toBe(404);
    await f.c.DeleteDeployToken({ actor: owner, project, tokenId: old.id });
    expect((await failure(f.c.GetDeployToken({ actor: owner, project, tokenId: old.id }))).status).toBe(404);
    expect(await f.deps.prisma.deployToken.findUnique({ where: { id: Number(old.id) } })).toBeNull();
    const events = await f.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.identity.deploy_token_destroy" } });
    expect(events.map((e) => e.payload as Record<string, unknown>)).toContainEqual(
      expect.objectContaining({ event_name: "deploy_token_destroy", deploy_token_id: Number(old.id), actor_id: owner.userId, project_id: Number(p.id) }),
    );
  });
});
