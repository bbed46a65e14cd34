// GPG keys (/user/gpg_keys, /users/:id/gpg_keys) over fetch and @gitbeaker/rest, and the
// verification of commits signed by the real gpg (throwaway GNUPGHOME) and ssh-keygen, pushed
// over HTTP: GET /projects/:id/repository/commits/:sha/signature.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitEnv, runCli } from "./git-cli.ts";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { gpgKeyring, type GpgKeyring } from "./gpg.ts";
import { generateKey } from "./ssh-keygen.ts";

let s: TestStack;
let home: string;
let keyring: GpgKeyring;
const { post, del } = jsonRequests(() => s);

beforeAll(async () => {
  s = await startTestStack();
  home = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-gpg-home-"));
  keyring = gpgKeyring();
}, 60_000);
afterAll(async () => {
  keyring?.destroy();
  await s?.destroy();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

const KEY_PREFIX = "-----BEGIN PGP PUBLIC KEY BLOCK-----";
const INVALID_KEY = `is invalid. A valid public GPG key begins with '${KEY_PREFIX}' and ends with '-----END PGP PUBLIC KEY BLOCK-----'`;

async function git(cwd: string, env: Record<string, string>, ...args: string[]): Promise<string> {
  const r = await runCli("git", ["-c", "credential.helper=", ...args], cwd, gitEnv(home, { GNUPGHOME: keyring.home, ...env }));
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout.trim();
}

describe("GPG keys", () => {
  it("adds, lists, reads, deletes and revokes the caller's keys with GitLab's statuses and bodies", async () => {
    const u = await createUserWithToken(s);
    const k = keyring.newKey("Crud User", `${u.username}@example.com`);
    const created = await jsonBody(await post("/user/gpg_keys", { key: `${k.publicKey}\n` }, u.token), 201);
    expect(created).toEqual({ id: expect.any(Number), key: k.publicKey, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(await jsonBody(await s.api("/user/gpg_keys", { token: u.token }), 200)).toEqual([created]);
    expect(await jsonBody(await s.api(`/user/gpg_keys/${created.id}`, { token: u.token }), 200)).toEqual(created);
    // Anyone may read a user's keys by user id.
    expect(await jsonBody(await s.api(`/users/${u.id}/gpg_keys`, { token: null }), 200)).toEqual([created]);
    expect(await jsonBody(await s.api(`/users/${u.id}/gpg_keys/${created.id}`, { token: null }), 200)).toEqual(created);
    expect(await jsonBody(await s.api("/users/999999/gpg_keys"), 404)).toEqual({ message: "404 User Not Found" });
    expect(await jsonBody(await s.api(`/users/${u.id}/gpg_keys/999999`), 404)).toEqual({ message: "404 GPG Key Not Found" });
    expect(await jsonBody(await s.api("/user/gpg_keys", { token: null }), 401)).toEqual({ message: "401 Unauthorized" });

    // Another user neither reads nor deletes it through their own keys.
    const other = await createUserWithToken(s);
    expect(await jsonBody(await s.api(`/user/gpg_keys/${created.id}`, { token: other.token }), 404)).toEqual({ message: "404 GPG Key Not Found" });
    expect(await jsonBody(await del(`/user/gpg_keys/${created.id}`, other.token), 404)).toEqual({ message: "404 GPG Key Not Found" });

    expect((await del(`/user/gpg_keys/${created.id}`, u.token)).status).toBe(204);
    expect(await jsonBody(await s.api("/user/gpg_keys", { token: u.token }), 200)).toEqual([]);
    expect(await jsonBody(await del(`/user/gpg_keys/${created.id}`, u.token), 404)).toEqual({ message: "404 GPG Key Not Found" });

    // Revoking: 202, the key is gone.
    const again = await jsonBody(await post("/user/gpg_keys", { key: k.publicKey }, u.token), 201);
    const revoked = await post(`/user/gpg_keys/${again.id}/revoke`, {}, u.token);
    // Grape renders `status :accepted`'s value as the body.
    expect(await jsonBody(revoked, 202)).toBe(202);
    expect(await jsonBody(await s.api(`/user/gpg_keys/${again.id}`, { token: u.token }), 404)).toEqual({ message: "404 GPG Key Not Found" });
    expect(await jsonBody(await post(`/user/gpg_keys/${again.id}/revoke`, {}, u.token), 404)).toEqual({ message: "404 GPG Key Not Found" });
  });

  it("refuses missing, malformed, secret and taken keys with GitLab's 400 bodies", async () => {
    const u = await createUserWithToken(s);
    expect(await jsonBody(await post("/user/gpg_keys", {}, u.token), 400)).toEqual({ error: "key is missing" });
    expect(await jsonBody(await post("/user/gpg_keys", { key: "hello" }, u.token), 400)).toEqual({ message: { key: [INVALID_KEY] } });
    const secret = keyring.gpg("--armor", "--export-secret-keys", keyring.newKey("Secret", `${u.username}+secret@example.com`).fingerprint);
    expect(await jsonBody(await post("/user/gpg_keys", { key: secret }, u.token), 400)).toEqual({ message: { key: [INVALID_KEY] } });
    expect(await jsonBody(await post("/user/gpg_keys", { key: `${KEY_PREFIX}\n\nbm9wZQ==\n-----END PGP PUBLIC KEY BLOCK-----` }, u.token), 400)).toEqual({
      message: { fingerprint: ["can't be blank"], primary_keyid: ["can't be blank"] },
    });

    const k = keyring.newKey("Taken", `${u.username}+taken@example.com`);
    await jsonBody(await post("/user/gpg_keys", { key: k.publicKey }, u.token), 201);
    const other = await createUserWithToken(s);
    expect(await jsonBody(await post("/user/gpg_keys", { key: k.publicKey }, other.token), 400)).toEqual({ message: { key: ["has already been taken"] } });
    const rearmored = k.publicKey.replace(`${KEY_PREFIX}\n`, `${KEY_PREFIX}\nComment: the same key\n`);
    expect(await jsonBody(await post("/user/gpg_keys", { key: rearmored }, other.token), 400)).toEqual({
      message: { fingerprint: ["has already been taken"], primary_keyid: ["has already been taken"] },
    });
    expect(await jsonBody(await s.api("/user/gpg_keys", { token: other.token }), 200)).toEqual([]);
  });

  it("lets administrators add, delete and revoke other users' keys", async () => {
    const u = await createUserWithToken(s);
    const k = keyring.newKey("Admin Managed", `${u.username}@example.com`);
    expect((await post(`/users/${u.id}/gpg_keys`, { key: k.publicKey }, u.token)).status).toBe(403);
    expect(await jsonBody(await post("/users/999999/gpg_keys", { key: k.publicKey }), 404)).toEqual({ message: "404 User Not Found" });
    const created = await jsonBody(await post(`/users/${u.id}/gpg_keys`, { key: k.publicKey }), 201);
    expect(await jsonBody(await s.api("/user/gpg_keys", { token: u.token }), 200)).toEqual([created]);
    expect((await del(`/users/${u.id}/gpg_keys/${created.id}`, u.token)).status).toBe(403);
    expect((await del(`/users/${u.id}/gpg_keys/${created.id}`)).status).toBe(204);
    const again = await jsonBody(await post(`/users/${u.id}/gpg_keys`, { key: k.publicKey }), 201);
    expect((await post(`/users/${u.id}/gpg_keys/${again.id}/revoke`, {}, u.token)).status).toBe(403);
    expect((await post(`/users/${u.id}/gpg_keys/${again.id}/revoke`, {})).status).toBe(202);
    expect(await jsonBody(await s.api(`/users/${u.id}/gpg_keys`), 200)).toEqual([]);
  });

  it("works through @gitbeaker/rest's UserGPGKeys", async () => {
    const u = await createUserWithToken(s);
    const api = s.gitlab(u.token);
    const k = keyring.newKey("Gitbeaker", `${u.username}@example.com`);
    const created = await api.UserGPGKeys.create(k.publicKey);
    expect(created).toMatchObject({ key: k.publicKey });
    expect((await api.UserGPGKeys.all()).map((x) => x.id)).toEqual([created.id]);
    expect((await api.UserGPGKeys.show(created.id)).key).toBe(k.publicKey);
    expect((await s.gitlab().UserGPGKeys.all({ userId: u.id })).map((x) => x.id)).toEqual([created.id]);
    await api.UserGPGKeys.remove(created.id);
    expect(await api.UserGPGKeys.all()).toEqual([]);
    const byAdmin = await s.gitlab().UserGPGKeys.create(k.publicKey, { userId: u.id });
    expect((await api.UserGPGKeys.show(byAdmin.id)).id).toBe(byAdmin.id);
    await s.gitlab().UserGPGKeys.remove(byAdmin.id, { userId: u.id });
    expect(await api.UserGPGKeys.all()).toEqual([]);
  });
});

describe("commit signature verification", () => {
  it("verifies GPG-signed commits and tags pushed over HTTP against the keys on users' accounts", async () => {
    const author = await createUserWithToken(s);
    const other = await createUserWithToken(s);
    const authorEmail = `${author.username}@example.com`;
    const project = await jsonBody(await post("/projects", { name: `signed-${author.username}`, initialize_with_readme: true }, author.token), 201);
    const remote = new URL(`${s.url}/${project.path_with_namespace}.git`);
    remote.username = author.username;
    remote.password = author.token;
    const dir = path.join(fs.mkdtempSync(path.join(home, "w")), "repo");
    await git(home, {}, "clone", remote.toString(), dir);

    const mine = keyring.newKey("Author Name", authorEmail);
    const others = keyring.newKey("Other Name", `${other.username}@example.com`);
    const asAuthor = { GIT_COMMITTER_EMAIL: authorEmail, GIT_AUTHOR_EMAIL: authorEmail };
    const signedCommit = async (signingKey: string, message: string) => {
      await git(dir, asAuthor, "-c", `user.signingkey=${signingKey}`, "commit", "--allow-empty", "-S", "-m", message);
      return git(dir, {}, "rev-parse", "HEAD");
    };
    const byMine = await signedCommit(mine.fingerprint, "Signed by the author's key");
    const byOthers = await signedCommit(others.fingerprint, "Signed by another user's key");
    await git(dir, asAuthor, "-c", `user.signingkey=${mine.fingerprint}`, "tag", "-s", "v1.0", "-m", "Signed release");
    await git(dir, {}, "push", "origin", "main", "v1.0");
    const tagStatus = async () =>
      (await jsonBody(await s.api(`/projects/${project.id}/repository/tags/v1.0/signature`, { token: author.token }), 200)).verification_status;

    const signature = async (sha: string) => jsonBody(await s.api(`/projects/${project.id}/repository/commits/${sha}/signature`, { token: author.token }), 200);
    const unknown = {
      signature_type: "PGP",
      verification_status: "unknown_key",
      gpg_key_id: null,
      gpg_key_primary_keyid: mine.keyid,
      gpg_key_user_name: null,
      gpg_key_user_email: null,
      gpg_key_subkey_id: null,
      commit_source: "gitaly",
    };
    expect(await signature(byMine)).toEqual(unknown);
    expect(await tagStatus()).toBe("unknown_key");

    // On an account without the key's e-mail: the key is not verified.
    const onOther = await jsonBody(await post("/user/gpg_keys", { key: mine.publicKey }, other.token), 201);
    expect(await signature(byMine)).toEqual({
      ...unknown,
      verification_status: "unverified_key",
      gpg_key_id: onOther.id,
      gpg_key_user_name: "Author Name",
      gpg_key_user_email: authorEmail,
    });
    expect((await del(`/user/gpg_keys/${onOther.id}`, other.token)).status).toBe(204);

    // On the committer's account: verified.
    const onAuthor = await jsonBody(await post("/user/gpg_keys", { key: mine.publicKey }, author.token), 201);
    const verified = {
      ...unknown,
      verification_status: "verified",
      gpg_key_id: onAuthor.id,
      gpg_key_user_name: "Author Name",
      gpg_key_user_email: authorEmail,
    };
    expect(await signature(byMine)).toEqual(verified);
    expect(await s.gitlab(author.token).Commits.showGPGSignature(project.id, byMine)).toEqual(verified);
    // The signed tag (the tagger's e-mail is the author's) too.
    expect(await s.gitlab(author.token).Tags.showSignature(project.id, "v1.0")).toEqual({ signature_type: "PGP", verification_status: "verified" });

    // Another user's (verified) key signing the author's commit: other_user.
    const othersKey = await jsonBody(await post("/user/gpg_keys", { key: others.publicKey }, other.token), 201);
    expect(await signature(byOthers)).toMatchObject({
      verification_status: "other_user",
      gpg_key_id: othersKey.id,
      gpg_key_primary_keyid: others.keyid,
      gpg_key_user_email: `${other.username}@example.com`,
    });

    // Revoked: no longer verified.
    expect((await post(`/user/gpg_keys/${onAuthor.id}/revoke`, {}, author.token)).status).toBe(202);
    expect(await signature(byMine)).toEqual(unknown);
  });

  it("verifies SSH-signed commits and tags against the committer's signing SSH keys", async () => {
    const author = await createUserWithToken(s);
    const other = await createUserWithToken(s);
    const authorEmail = `${author.username}@example.com`;
    const project = await jsonBody(await post("/projects", { name: `ssh-signed-${author.username}`, initialize_with_readme: true }, author.token), 201);
    const remote = new URL(`${s.url}/${project.path_with_namespace}.git`);
    remote.username = author.username;
    remote.password = author.token;
    const dir = path.join(fs.mkdtempSync(path.join(home, "w")), "repo");
    await git(home, {}, "clone", remote.toString(), dir);
    const k = generateKey();
    await git(
      dir,
      { GIT_COMMITTER_EMAIL: authorEmail },
      "-c",
      "gpg.format=ssh",
      "-c",
      `user.signingkey=${k.privatePath}`,
      "commit",
      "--allow-empty",
      "-S",
      "-m",
      "SSH-signed",
    );
    const sha = await git(dir, {}, "rev-parse", "HEAD");
    await git(
      dir,
      { GIT_COMMITTER_EMAIL: authorEmail },
      "-c",
      "gpg.format=ssh",
      "-c",
      `user.signingkey=${k.privatePath}`,
      "tag",
      "-s",
      "v1.0",
      "-m",
      "SSH-signed tag",
    );
    await git(dir, {}, "push", "origin", "main", "v1.0");
    const tagStatus = async () =>
      (await jsonBody(await s.api(`/projects/${project.id}/repository/tags/v1.0/signature`, { token: author.token }), 200)).verification_status;
    const signature = async () => jsonBody(await s.api(`/projects/${project.id}/repository/commits/${sha}/signature`, { token: author.token }), 200);

    expect(await signature()).toEqual({ signature_type: "SSH", verification_status: "unknown_key", key: null, commit_source: "gitaly" });
    expect(await tagStatus()).toBe("unknown_key");
    // Another user's key: other_user, with the key.
    const onOther = await jsonBody(await post("/user/keys", { title: "other's", key: k.publicKey, usage_type: "signing" }, other.token), 201);
    expect(await signature()).toEqual({ signature_type: "SSH", verification_status: "other_user", key: onOther, commit_source: "gitaly" });
    expect((await del(`/user/keys/${onOther.id}`, other.token)).status).toBe(204);
    // An authentication-only key does not sign.
    const authOnly = await jsonBody(await post("/user/keys", { title: "auth", key: k.publicKey, usage_type: "auth" }, author.token), 201);
    expect((await signature()).verification_status).toBe("unknown_key");
    expect((await del(`/user/keys/${authOnly.id}`, author.token)).status).toBe(204);
    const signing = await jsonBody(await post("/user/keys", { title: "signing", key: k.publicKey, usage_type: "auth_and_signing" }, author.token), 201);
    expect(await signature()).toEqual({ signature_type: "SSH", verification_status: "verified", key: signing, commit_source: "gitaly" });
    expect(await tagStatus()).toBe("verified");
  });
});
