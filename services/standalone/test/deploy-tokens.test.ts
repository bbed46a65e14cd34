// Deploy tokens (/deploy_tokens, /projects/:id/deploy_tokens, /groups/:id/deploy_tokens) over
// fetch and @gitbeaker/rest, and the real git CLI cloning over HTTP with them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitHttp } from "./git-cli.ts";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let home: string;
const { post, del } = jsonRequests(() => s);

beforeAll(async () => {
  s = await startTestStack();
  home = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-deploy-tokens-"));
}, 60_000);
afterAll(async () => {
  await s?.destroy();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

const ACCESS_DENIED =
  "HTTP Basic: Access denied. If a password was provided for Git authentication, the password was incorrect or you're required to use a token instead of a password. If a token was provided, it was either incorrect, expired, or improperly scoped.";

let n = 0;
const unique = () => `${Date.now().toString(36)}${n++}`;

/** A private project with a README, owned by `token`'s user (in `namespace_id` when given). */
async function project(token: string, extra: Record<string, unknown> = {}): Promise<{ id: number; path_with_namespace: string }> {
  return jsonBody(await post("/projects", { name: `dt-${unique()}`, visibility: "private", initialize_with_readme: true, ...extra }, token), 201);
}

/** The clone URL with `username:token@`. */
function url(p: { path_with_namespace: string }, username: string, token: string): string {
  const u = new URL(`${s.url}/${p.path_with_namespace}.git`);
  u.username = username;
  u.password = token;
  return u.toString();
}

let dirs = 0;
const clone = (p: { path_with_namespace: string }, username: string, token: string) =>
  gitHttp(home, home, "clone", url(p, username, token), path.join(home, `c${dirs++}`));

/** What a git request as `username:token` answers: status, body (and the Basic challenge). */
async function infoRefs(p: { path_with_namespace: string }, username: string, token: string, service = "git-upload-pack") {
  const res = await fetch(`${s.url}/${p.path_with_namespace}.git/info/refs?service=${service}`, {
    headers: { Authorization: `Basic ${Buffer.from(`${username}:${token}`).toString("base64")}` },
  });
  return { status: res.status, body: await res.text(), challenge: res.headers.get("www-authenticate") };
}

describe("project deploy tokens", () => {
  it("creates (token shown once), lists, reads and deletes with GitLab's fields and statuses", async () => {
    const owner = await createUserWithToken(s);
    const p = await project(owner.token);
    const created = await jsonBody(
      await post(`/projects/${p.id}/deploy_tokens`, { name: "ci", scopes: ["read_repository", "read_registry"], expires_at: "2099-02-14" }, owner.token),
      201,
    );
    expect(created).toEqual({
      id: expect.any(Number),
      name: "ci",
      username: `gitlab+deploy-token-${created.id}`,
      expires_at: "2099-02-14T00:00:00.000Z",
      scopes: ["read_repository", "read_registry"],
      revoked: false,
      expired: false,
      token: expect.stringMatching(/^gldt-[A-Za-z0-9_-]{20}$/),
    });
    const { token: _token, ...shown } = created;
    expect(await jsonBody(await s.api(`/projects/${p.id}/deploy_tokens`, { token: owner.token }), 200)).toEqual([shown]);
    expect(await jsonBody(await s.api(`/projects/${p.id}/deploy_tokens/${created.id}`, { token: owner.token }), 200)).toEqual(shown);
    // Form-encoded, comma-separated scopes and a username of one's own.
    const form = await s.api(`/projects/${encodeURIComponent(p.path_with_namespace)}/deploy_tokens`, {
      method: "POST",
      token: owner.token,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "name=form&scopes=read_repository,write_registry&username=deployer.1",
    });
    expect(await jsonBody(form, 201)).toMatchObject({ name: "form", username: "deployer.1", scopes: ["read_repository", "write_registry"], expires_at: null });

    expect((await del(`/projects/${p.id}/deploy_tokens/${created.id}`, owner.token)).status).toBe(204);
    expect(await jsonBody(await s.api(`/projects/${p.id}/deploy_tokens/${created.id}`, { token: owner.token }), 404)).toEqual({ message: "404 Not found" });
    expect(await jsonBody(await del(`/projects/${p.id}/deploy_tokens/${created.id}`, owner.token), 404)).toEqual({ message: "404 Not found" });
    expect((await jsonBody(await s.api(`/projects/${p.id}/deploy_tokens`, { token: owner.token }), 200)).map((t: { name: string }) => t.name)).toEqual([
      "form",
    ]);
  });

  it("answers GitLab's 400s and writes nothing", async () => {
    const owner = await createUserWithToken(s);
    const p = await project(owner.token);
    const at = `/projects/${p.id}/deploy_tokens`;
    expect(await jsonBody(await post(at, {}, owner.token), 400)).toEqual({ error: "name is missing, scopes is missing" });
    expect(await jsonBody(await post(at, { name: "x", scopes: ["api"] }, owner.token), 400)).toEqual({ error: "scopes does not have a valid value" });
    expect(await jsonBody(await post(at, { name: "x", scopes: [] }, owner.token), 400)).toEqual({ message: "Scopes can't be blank" });
    expect(await jsonBody(await post(at, { name: "x", scopes: ["read_repository"], username: "no spaces" }, owner.token), 400)).toEqual({
      message: "Username can contain only letters, digits, '_', '-', '+', and '.'",
    });
    expect(await jsonBody(await post(at, { name: "x", scopes: ["read_repository"], expires_at: "someday" }, owner.token), 400)).toEqual({
      error: "expires_at is invalid",
    });
    expect(await jsonBody(await s.api(at, { token: owner.token }), 200)).toEqual([]);
  });

  it("needs Maintainer: 401 without a token on the instance list, 404 for outsiders, 403 for Developers and non-administrators", async () => {
    const owner = await createUserWithToken(s);
    const dev = await createUserWithToken(s);
    const outsider = await createUserWithToken(s);
    const p = await project(owner.token);
    await jsonBody(await post(`/projects/${p.id}/members`, { user_id: dev.id, access_level: 30 }, owner.token), 201);
    const body = { name: "x", scopes: ["read_repository"] };
    expect(await jsonBody(await post(`/projects/${p.id}/deploy_tokens`, body, outsider.token), 404)).toEqual({ message: "404 Project Not Found" });
    expect(await jsonBody(await post(`/projects/${p.id}/deploy_tokens`, body, dev.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await s.api(`/projects/${p.id}/deploy_tokens`, { token: dev.token }), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await s.api(`/projects/${p.id}/deploy_tokens`, { token: null }), 404)).toEqual({ message: "404 Project Not Found" });
    expect(await jsonBody(await s.api("/deploy_tokens", { token: null }), 401)).toEqual({ message: "401 Unauthorized" });
    expect(await jsonBody(await s.api("/deploy_tokens", { token: owner.token }), 403)).toEqual({ message: "403 Forbidden" });
    // A read_api token may read but not create.
    const reader = await createUserWithToken(s, ["read_api"]);
    await jsonBody(await post(`/projects/${p.id}/members`, { user_id: reader.id, access_level: 40 }, owner.token), 201);
    expect((await s.api(`/projects/${p.id}/deploy_tokens`, { token: reader.token })).status).toBe(200);
    expect((await post(`/projects/${p.id}/deploy_tokens`, body, reader.token)).status).toBe(403);
  });

  it("lists the instance's tokens for administrators, with the active filter", async () => {
    const owner = await createUserWithToken(s);
    const p = await project(owner.token);
    const live = await jsonBody(await post(`/projects/${p.id}/deploy_tokens`, { name: "live", scopes: ["read_repository"] }, owner.token), 201);
    const old = await jsonBody(
      await post(`/projects/${p.id}/deploy_tokens`, { name: "old", scopes: ["read_repository"], expires_at: "2001-01-01T00:00:00Z" }, owner.token),
      201,
    );
    expect(old).toMatchObject({ expired: true, revoked: false });
    const all = await s.api("/deploy_tokens?per_page=100");
    expect(all.headers.get("x-total")).not.toBeNull();
    const ids = ((await jsonBody(all, 200)) as { id: number }[]).map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining([live.id, old.id]));
    const active = ((await jsonBody(await s.api("/deploy_tokens?active=true&per_page=100"), 200)) as { id: number }[]).map((t) => t.id);
    expect(active).toContain(live.id);
    expect(active).not.toContain(old.id);
    expect((await jsonBody(await s.api(`/projects/${p.id}/deploy_tokens?active=true`, { token: owner.token }), 200)).map((t: { id: number }) => t.id)).toEqual([
      live.id,
    ]);
  });
});

describe("group deploy tokens", () => {
  it("are managed by the group's Maintainers and kept apart from project tokens", async () => {
    const owner = await createUserWithToken(s);
    const dev = await createUserWithToken(s);
    const g = await jsonBody(await post("/groups", { name: `g${unique()}`, path: `g${unique()}` }, owner.token), 201);
    await jsonBody(await post(`/groups/${g.id}/members`, { user_id: dev.id, access_level: 30 }, owner.token), 201);
    const t = await jsonBody(await post(`/groups/${g.id}/deploy_tokens`, { name: "grp", scopes: ["read_repository"] }, owner.token), 201);
    expect(t).toMatchObject({ name: "grp", username: `gitlab+deploy-token-${t.id}`, token: expect.stringMatching(/^gldt-/) });
    expect((await jsonBody(await s.api(`/groups/${g.full_path}/deploy_tokens`, { token: owner.token }), 200)).map((x: { id: number }) => x.id)).toEqual([t.id]);
    expect((await jsonBody(await s.api(`/groups/${g.id}/deploy_tokens/${t.id}`, { token: owner.token }), 200)).name).toBe("grp");
    expect(await jsonBody(await post(`/groups/${g.id}/deploy_tokens`, { name: "x", scopes: ["read_repository"] }, dev.token), 403)).toEqual({
      message: "403 Forbidden",
    });
    const p = await project(owner.token);
    expect((await s.api(`/projects/${p.id}/deploy_tokens/${t.id}`, { token: owner.token })).status).toBe(404);
    expect((await del(`/groups/${g.id}/deploy_tokens/${t.id}`, owner.token)).status).toBe(204);
    expect(await jsonBody(await s.api(`/groups/${g.id}/deploy_tokens`, { token: owner.token }), 200)).toEqual([]);
  });
});

describe("git over HTTP with a deploy token", () => {
  it("clones with a project token and its username; refuses pushes, other projects, wrong usernames and missing scopes", async () => {
    const owner = await createUserWithToken(s);
    const p = await project(owner.token);
    const other = await project(owner.token);
    const t = await jsonBody(await post(`/projects/${p.id}/deploy_tokens`, { name: "clone", scopes: ["read_repository"] }, owner.token), 201);
    const cloned = await clone(p, t.username, t.token);
    expect(cloned.code, cloned.stderr).toBe(0);
    expect(fs.readdirSync(path.join(home, `c${dirs - 1}`))).toContain("README.md");

    // Pushing: GitLab's auth_upload refusal, and git push fails.
    expect(await infoRefs(p, t.username, t.token, "git-receive-pack")).toMatchObject({ status: 403, body: "You are not allowed to upload code." });
    const dir = path.join(home, `c${dirs - 1}`);
    fs.writeFileSync(path.join(dir, "new.txt"), "x\n");
    await gitHttp(home, dir, "add", "new.txt");
    await gitHttp(home, dir, "commit", "-m", "new");
    const push = await gitHttp(home, dir, "push", "origin", "HEAD");
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain("You are not allowed to upload code.");

    // Another project, a wrong username, a wrong token: GitLab's 401 with its challenge.
    expect(await infoRefs(other, t.username, t.token)).toEqual({ status: 401, body: ACCESS_DENIED, challenge: 'Basic realm="GitLab"' });
    expect((await infoRefs(p, "someone-else", t.token)).status).toBe(401);
    expect((await infoRefs(p, t.username, `${t.token}x`)).status).toBe(401);
    expect((await clone(other, t.username, t.token)).code).not.toBe(0);

    // A registry-only token may not download code.
    const reg = await jsonBody(await post(`/projects/${p.id}/deploy_tokens`, { name: "reg", scopes: ["read_registry"] }, owner.token), 201);
    expect(await infoRefs(p, reg.username, reg.token)).toMatchObject({ status: 403, body: "You are not allowed to download code." });

    // A custom username is the one to use.
    const named = await jsonBody(
      await post(`/projects/${p.id}/deploy_tokens`, { name: "n", scopes: ["read_repository"], username: "robot" }, owner.token),
      201,
    );
    expect((await clone(p, "robot", named.token)).code).toBe(0);
    expect((await infoRefs(p, `gitlab+deploy-token-${named.id}`, named.token)).status).toBe(401);
  });

  it("refuses expired and deleted tokens", async () => {
    const owner = await createUserWithToken(s);
    const p = await project(owner.token);
    const expired = await jsonBody(
      await post(`/projects/${p.id}/deploy_tokens`, { name: "e", scopes: ["read_repository"], expires_at: "2001-01-01" }, owner.token),
      201,
    );
    expect(await infoRefs(p, expired.username, expired.token)).toMatchObject({ status: 401, body: ACCESS_DENIED });
    const gone = await jsonBody(await post(`/projects/${p.id}/deploy_tokens`, { name: "d", scopes: ["read_repository"] }, owner.token), 201);
    expect((await infoRefs(p, gone.username, gone.token)).status).toBe(200);
    expect((await del(`/projects/${p.id}/deploy_tokens/${gone.id}`, owner.token)).status).toBe(204);
    expect((await infoRefs(p, gone.username, gone.token)).status).toBe(401);
    expect((await clone(p, gone.username, gone.token)).code).not.toBe(0);
  });

  it("clones every project of a group token's group and subgroups, and nothing outside", async () => {
    const owner = await createUserWithToken(s);
    const g = await jsonBody(await post("/groups", { name: `g${unique()}`, path: `g${unique()}` }, owner.token), 201);
    const sub = await jsonBody(await post("/groups", { name: "sub", path: "sub", parent_id: g.id }, owner.token), 201);
    const top = await project(owner.token, { namespace_id: g.id });
    const deep = await project(owner.token, { namespace_id: sub.id });
    const outside = await project(owner.token);
    const t = await jsonBody(await post(`/groups/${g.id}/deploy_tokens`, { name: "grp", scopes: ["read_repository"] }, owner.token), 201);
    expect((await clone(top, t.username, t.token)).code).toBe(0);
    const deepClone = await clone(deep, t.username, t.token);
    expect(deepClone.code, deepClone.stderr).toBe(0);
    expect((await infoRefs(outside, t.username, t.token)).status).toBe(401);
    // A subgroup's token does not reach its parent's projects.
    const st = await jsonBody(await post(`/groups/${sub.id}/deploy_tokens`, { name: "sub", scopes: ["read_repository"] }, owner.token), 201);
    expect((await infoRefs(deep, st.username, st.token)).status).toBe(200);
    expect((await infoRefs(top, st.username, st.token)).status).toBe(401);
  });
});

describe("@gitbeaker/rest DeployTokens", () => {
  it("creates, lists, shows and removes project and group tokens", async () => {
    const owner = await createUserWithToken(s);
    const api = s.gitlab(owner.token);
    const p = await project(owner.token);
    const created = await api.DeployTokens.create("beaker", ["read_repository"], { projectId: p.id, username: "beaker-bot" });
    expect(created).toMatchObject({ name: "beaker", username: "beaker-bot", scopes: ["read_repository"], revoked: false, expired: false });
    expect(created.token).toMatch(/^gldt-/);
    expect((await api.DeployTokens.all({ projectId: p.id })).map((t) => t.id)).toEqual([created.id]);
    expect((await api.DeployTokens.show(created.id, { projectId: p.id })).name).toBe("beaker");
    await api.DeployTokens.remove(created.id, { projectId: p.id });
    expect(await api.DeployTokens.all({ projectId: p.id })).toEqual([]);

    const g = await jsonBody(await post("/groups", { name: `g${unique()}`, path: `g${unique()}` }, owner.token), 201);
    const gt = await api.DeployTokens.create("gb", ["read_repository", "read_package_registry"], { groupId: g.id });
    expect(gt.scopes).toEqual(["read_repository", "read_package_registry"]);
    expect((await api.DeployTokens.all({ groupId: g.id })).map((t) => t.name)).toEqual(["gb"]);
    const admin = s.gitlab();
    expect((await admin.DeployTokens.all({ perPage: 100 })).map((t) => t.id)).toContain(gt.id);
    await api.DeployTokens.remove(gt.id, { groupId: g.id });
    expect(await api.DeployTokens.all({ groupId: g.id })).toEqual([]);
  });
});
