// SSH keys (/user/keys, /users/:id/keys, /keys) and deploy keys (/projects/:id/deploy_keys,
// /deploy_keys) over fetch and @gitbeaker/rest, with keys made by the real ssh-keygen.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { generateKey } from "./ssh-keygen.ts";

let s: TestStack;
const { post, put, del } = jsonRequests(() => s);

beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(async () => {
  await s?.destroy();
});

const FORBIDDEN_TYPE = "type is forbidden. Must be RSA, DSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK";

describe("user SSH keys", () => {
  it("adds, lists, reads and deletes the caller's keys, publishing them without their comment", async () => {
    const u = await createUserWithToken(s);
    const k = generateKey();
    const created = await jsonBody(await post("/user/keys", { title: "laptop", key: k.publicKey, usage_type: "auth" }, u.token), 201);
    const [algorithm, data] = k.publicKey.split(" ");
    expect(created).toEqual({
      id: expect.any(Number),
      title: "laptop",
      created_at: expect.any(String),
      expires_at: null,
      key: `${algorithm} ${data} ${created.key.split(" ").slice(2).join(" ")}`,
      usage_type: "auth",
      last_used_at: null,
    });
    // Key#publishable_key: "<name> (<host>)" replaces the comment (an e-mail address here).
    expect(created.key).toBe(`${algorithm} ${data} User ${u.username.slice(4)} (localhost)`);

    const list = await jsonBody(await s.api("/user/keys", { token: u.token }), 200);
    expect(list.map((x: { id: number }) => x.id)).toEqual([created.id]);
    expect(await jsonBody(await s.api(`/user/keys/${created.id}`, { token: u.token }), 200)).toEqual(created);
    // Another user's key is not the caller's.
    const other = await createUserWithToken(s);
    expect(await jsonBody(await s.api(`/user/keys/${created.id}`, { token: other.token }), 404)).toEqual({ message: "404 Key Not Found" });
    expect((await del(`/user/keys/${created.id}`, other.token)).status).toBe(404);

    // Anyone may list a user's keys, by id or username.
    expect((await jsonBody(await s.api(`/users/${u.id}/keys`, { token: null }), 200)).map((x: { id: number }) => x.id)).toEqual([created.id]);
    expect((await jsonBody(await s.api(`/users/${u.username}/keys`, { token: other.token }), 200))[0].title).toBe("laptop");
    expect((await jsonBody(await s.api(`/users/${u.id}/keys/${created.id}`, { token: other.token }), 200)).id).toBe(created.id);
    expect(await jsonBody(await s.api("/users/nosuchuser/keys"), 404)).toEqual({ message: "404 User Not Found" });

    expect((await del(`/user/keys/${created.id}`, u.token)).status).toBe(204);
    expect(await jsonBody(await s.api("/user/keys", { token: u.token }), 200)).toEqual([]);
    expect(await jsonBody(await del(`/user/keys/${created.id}`, u.token), 404)).toEqual({ message: "404 Key Not Found" });
  });

  it("refuses missing parameters, invalid keys, expired keys and a key already taken", async () => {
    const u = await createUserWithToken(s);
    expect(await jsonBody(await post("/user/keys", {}, u.token), 400)).toEqual({ error: "key is missing, title is missing" });
    expect(await jsonBody(await post("/user/keys", { title: "x", key: "ssh-rsa notbase64!" }, u.token), 400)).toEqual({
      message: { fingerprint_sha256: ["cannot be generated"], key: [FORBIDDEN_TYPE] },
    });
    expect(await jsonBody(await post("/user/keys", { title: "x", key: "hello" }, u.token), 400)).toEqual({
      message: { key: ["is invalid", FORBIDDEN_TYPE], fingerprint_sha256: ["cannot be generated"] },
    });
    // The blob must be a key of the algorithm it claims.
    const ed = generateKey();
    const mislabelled = `ssh-rsa ${ed.publicKey.split(" ")[1]}`;
    expect((await jsonBody(await post("/user/keys", { title: "x", key: mislabelled }, u.token), 400)).message.key).toEqual([FORBIDDEN_TYPE]);
    const k = generateKey(["-t", "ecdsa", "-b", "384"]);
    expect((await jsonBody(await post("/user/keys", { title: "x", key: k.publicKey, expires_at: "2001-01-01T00:00:00Z" }, u.token), 400)).message).toEqual({
      key: ["has expired"],
    });
    expect((await post("/user/keys", { title: "x", key: k.publicKey, usage_type: "both" }, u.token)).status).toBe(400);
    await jsonBody(await post("/user/keys", { title: "x", key: k.publicKey, expires_at: "2099-01-01T00:00:00Z" }, u.token), 201);
    // The same key again, for anyone (the comment does not matter).
    const other = await createUserWithToken(s);
    const again = `${k.publicKey.split(" ").slice(0, 2).join(" ")} another comment`;
    expect(await jsonBody(await post("/user/keys", { title: "y", key: again }, other.token), 400)).toEqual({
      message: { fingerprint_sha256: ["has already been taken"] },
    });
    // RSA keys of 2048 bits are fine.
    await jsonBody(await post("/user/keys", { title: "rsa", key: generateKey(["-t", "rsa", "-b", "2048"]).publicKey }, u.token), 201);
  });

  it("lets administrators add and delete users' keys and find keys by id or fingerprint", async () => {
    const u = await createUserWithToken(s);
    const k = generateKey();
    expect((await post(`/users/${u.id}/keys`, { title: "x", key: k.publicKey }, u.token)).status).toBe(403);
    const created = await jsonBody(await post(`/users/${u.id}/keys`, { title: "by admin", key: k.publicKey, expires_at: "2099-05-01" }), 201);
    expect(created.expires_at).toBe("2099-05-01T00:00:00.000Z");
    expect(created.usage_type).toBe("auth_and_signing");

    const byId = await jsonBody(await s.api(`/keys/${created.id}`), 200);
    expect(byId).toMatchObject({ id: created.id, title: "by admin", user: { id: u.id, username: u.username } });
    expect((await s.api(`/keys/${created.id}`, { token: u.token })).status).toBe(403);
    expect(await jsonBody(await s.api("/keys/999999"), 404)).toEqual({ message: "404 Not found" });

    const bySha = await jsonBody(await s.api(`/keys?fingerprint=${encodeURIComponent(k.sha256)}`), 200);
    expect(bySha).toMatchObject({ id: created.id, user: { id: u.id } });
    expect((await jsonBody(await s.api(`/keys?fingerprint=${encodeURIComponent(k.md5)}`), 200)).id).toBe(created.id);
    expect(await jsonBody(await s.api("/keys?fingerprint=SHA256:AAAA"), 404)).toEqual({ message: "404 Key Not Found" });
    expect(await jsonBody(await s.api("/keys?fingerprint=nonsense"), 400)).toEqual({ message: "Failed to return the key" });
    expect(await jsonBody(await s.api("/keys"), 400)).toEqual({ error: "fingerprint is missing" });
    expect((await s.api(`/keys?fingerprint=${encodeURIComponent(k.sha256)}`, { token: u.token })).status).toBe(403);

    expect((await del(`/users/${u.id}/keys/${created.id}`, u.token)).status).toBe(403);
    expect((await del(`/users/${u.id}/keys/${created.id}`)).status).toBe(204);
    expect(await jsonBody(await s.api(`/users/${u.id}/keys`), 200)).toEqual([]);
  });

  it("works through @gitbeaker/rest's UserSSHKeys", async () => {
    const u = await createUserWithToken(s);
    const api = s.gitlab(u.token);
    const k = generateKey();
    const created = await api.UserSSHKeys.create("gitbeaker", k.publicKey, { usageType: "auth_and_signing" });
    expect(created).toMatchObject({ title: "gitbeaker", usage_type: "auth_and_signing" });
    expect((await api.UserSSHKeys.all()).map((x) => x.id)).toEqual([created.id]);
    expect((await api.UserSSHKeys.show(created.id)).title).toBe("gitbeaker");
    // As an administrator for another user.
    const admin = s.gitlab();
    const k2 = generateKey();
    const forUser = await admin.UserSSHKeys.create("admin-made", k2.publicKey, { userId: u.id });
    expect((await admin.UserSSHKeys.all({ userId: u.id })).map((x) => x.title)).toEqual(["gitbeaker", "admin-made"]);
    await admin.UserSSHKeys.remove(forUser.id, { userId: u.id });
    await api.UserSSHKeys.remove(created.id);
    expect(await api.UserSSHKeys.all()).toEqual([]);
  });
});

describe("deploy keys", () => {
  async function project(token: string, name: string) {
    return jsonBody(await post("/projects", { name }, token), 201);
  }

  it("adds, lists, reads, updates and removes a project's deploy keys (Maintainer)", async () => {
    const owner = await createUserWithToken(s);
    const p = await project(owner.token, `dk-${Date.now()}`);
    const k = generateKey();
    const created = await jsonBody(await post(`/projects/${p.id}/deploy_keys`, { title: "ci", key: k.publicKey, can_push: true }, owner.token), 201);
    expect(created).toEqual({
      id: expect.any(Number),
      title: "ci",
      created_at: expect.any(String),
      expires_at: null,
      key: k.publicKey,
      usage_type: "auth_and_signing",
      fingerprint: k.md5,
      fingerprint_sha256: k.sha256.replace("SHA256:", ""),
      can_push: true,
    });
    // The same key again in the same project: the existing one.
    expect((await jsonBody(await post(`/projects/${p.id}/deploy_keys`, { title: "other", key: k.publicKey }, owner.token), 201)).id).toBe(created.id);
    expect(await jsonBody(await s.api(`/projects/${p.id}/deploy_keys`, { token: owner.token }), 200)).toEqual([created]);
    expect(await jsonBody(await s.api(`/projects/${p.id}/deploy_keys/${created.id}`, { token: owner.token }), 200)).toEqual(created);
    expect(await jsonBody(await s.api(`/projects/${p.id}/deploy_keys/999999`, { token: owner.token }), 404)).toEqual({ message: "404 Not found" });

    const updated = await jsonBody(await put(`/projects/${p.id}/deploy_keys/${created.id}`, { title: "renamed", can_push: false }, owner.token), 200);
    expect(updated).toMatchObject({ title: "renamed", can_push: false });
    expect(await jsonBody(await put(`/projects/${p.id}/deploy_keys/${created.id}`, {}, owner.token), 400)).toEqual({
      error: "title, can_push are missing, at least one parameter must be provided",
    });

    // A user's key cannot become a deploy key (fingerprints are unique over both).
    const userKey = generateKey();
    await jsonBody(await post("/user/keys", { title: "mine", key: userKey.publicKey }, owner.token), 201);
    expect(await jsonBody(await post(`/projects/${p.id}/deploy_keys`, { title: "x", key: userKey.publicKey }, owner.token), 400)).toEqual({
      message: { "deploy_key.fingerprint_sha256": ["has already been taken"] },
    });
    expect((await jsonBody(await post(`/projects/${p.id}/deploy_keys`, { title: "x", key: "ssh-ed25519 AAAA" }, owner.token), 400)).message).toHaveProperty(
      "deploy_key.fingerprint_sha256",
    );

    // Developers and strangers may not.
    const dev = await createUserWithToken(s);
    await jsonBody(await post(`/projects/${p.id}/members`, { user_id: dev.id, access_level: 30 }), 201);
    expect((await s.api(`/projects/${p.id}/deploy_keys`, { token: dev.token })).status).toBe(403);
    const stranger = await createUserWithToken(s);
    expect(await jsonBody(await s.api(`/projects/${p.id}/deploy_keys`, { token: stranger.token }), 404)).toEqual({ message: "404 Project Not Found" });

    expect((await del(`/projects/${p.id}/deploy_keys/${created.id}`, owner.token)).status).toBe(204);
    expect(await jsonBody(await del(`/projects/${p.id}/deploy_keys/${created.id}`, owner.token), 404)).toEqual({ message: "404 Deploy key Not Found" });
    // Its last project gone, the key is gone too.
    expect((await s.api(`/keys/${created.id}`)).status).toBe(404);
  });

  it("enables a key of another maintained project, and lists every key for administrators", async () => {
    const owner = await createUserWithToken(s);
    const a = await project(owner.token, `dka-${Date.now()}`);
    const b = await project(owner.token, `dkb-${Date.now()}`);
    const k = generateKey();
    const created = await jsonBody(await post(`/projects/${a.id}/deploy_keys`, { title: "shared", key: k.publicKey, can_push: true }, owner.token), 201);
    const enabled = await jsonBody(await post(`/projects/${b.id}/deploy_keys/${created.id}/enable`, {}, owner.token), 201);
    expect(enabled).toMatchObject({ id: created.id, title: "shared", key: k.publicKey });
    expect(enabled).not.toHaveProperty("can_push");
    expect(await jsonBody(await s.api(`/projects/${b.id}/deploy_keys`, { token: owner.token }), 200)).toMatchObject([{ id: created.id, can_push: false }]);

    // Someone who maintains neither project cannot enable it in theirs.
    const other = await createUserWithToken(s);
    const c = await project(other.token, `dkc-${Date.now()}`);
    expect(await jsonBody(await post(`/projects/${c.id}/deploy_keys/${created.id}/enable`, {}, other.token), 404)).toEqual({
      message: "404 Deploy key Not Found",
    });
    // Posting the same key creates nothing new for them either: the fingerprint is taken.
    expect((await post(`/projects/${c.id}/deploy_keys`, { title: "mine", key: k.publicKey }, other.token)).status).toBe(400);

    const all = await jsonBody(await s.api("/deploy_keys?per_page=100"), 200);
    const mine = all.find((x: { id: number }) => x.id === created.id);
    expect(mine.projects_with_write_access.map((x: { id: number }) => x.id)).toEqual([a.id]);
    expect(mine.projects_with_readonly_access.map((x: { id: number }) => x.id)).toEqual([b.id]);
    expect(mine.projects_with_write_access[0]).toEqual({
      id: a.id,
      description: null,
      name: a.name,
      name_with_namespace: a.name_with_namespace,
      path: a.path,
      path_with_namespace: a.path_with_namespace,
      created_at: a.created_at,
    });
    expect((await s.api("/deploy_keys", { token: owner.token })).status).toBe(403);

    // Removing it from one project keeps it for the other.
    expect((await del(`/projects/${a.id}/deploy_keys/${created.id}`, owner.token)).status).toBe(204);
    // GET /keys/:id shows a deploy key with its creator.
    expect((await jsonBody(await s.api(`/keys/${created.id}`), 200)).user.id).toBe(owner.id);
  });

  it("works through @gitbeaker/rest's DeployKeys", async () => {
    const owner = await createUserWithToken(s);
    const api = s.gitlab(owner.token);
    const a = await project(owner.token, `dkg-${Date.now()}`);
    const b = await project(owner.token, `dkh-${Date.now()}`);
    const k = generateKey();
    const created = await api.DeployKeys.create(a.id, "beaker", k.publicKey, { canPush: true });
    expect(created).toMatchObject({ title: "beaker", can_push: true });
    expect((await api.DeployKeys.all({ projectId: a.id })).map((x) => x.id)).toEqual([created.id]);
    expect((await api.DeployKeys.show(a.id, created.id)).title).toBe("beaker");
    expect(await api.DeployKeys.edit(a.id, created.id, { canPush: false })).toMatchObject({ can_push: false });
    await api.DeployKeys.enable(b.id, created.id);
    expect((await api.DeployKeys.all({ projectId: b.id })).map((x) => x.id)).toEqual([created.id]);
    expect((await s.gitlab().DeployKeys.all()).some((x) => x.id === created.id)).toBe(true);
    await api.DeployKeys.remove(a.id, created.id);
    expect(await api.DeployKeys.all({ projectId: a.id })).toEqual([]);
  });
});
