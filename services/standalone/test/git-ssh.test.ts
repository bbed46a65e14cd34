// Git over SSH with the real `git` and OpenSSH `ssh` clients against repo-service's SSH server:
// users' keys and deploy keys, the same permission and protected-branch rules as over HTTP.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { type CliResult, gitEnv, runCli } from "./git-cli.ts";
import { type GeneratedKey, generateKey } from "./ssh-keygen.ts";

let s: TestStack;
let home: string;
const { post } = jsonRequests(() => s);

/** ssh's options for the test server: no host key checks, only the given key, never a prompt. */
const SSH_OPTIONS = [
  "-o",
  "StrictHostKeyChecking=no",
  "-o",
  "UserKnownHostsFile=/dev/null",
  "-o",
  "IdentitiesOnly=yes",
  "-o",
  "BatchMode=yes",
  "-o",
  "LogLevel=ERROR",
];

/** Runs a command (see git-cli.ts) with, for git, `key` as its SSH identity. */
function run(cmd: string, args: string[], cwd: string, key?: GeneratedKey): Promise<CliResult> {
  const sshArgs = cmd === "ssh" ? [...SSH_OPTIONS, ...(key ? ["-i", key.privatePath] : []), ...args] : args;
  const env = gitEnv(home, { GIT_SSH_COMMAND: `ssh ${SSH_OPTIONS.join(" ")} -i ${key?.privatePath ?? "/dev/null"} -p ${s.sshPort}` });
  return runCli(cmd, sshArgs, cwd, env);
}

const git = (cwd: string, key: GeneratedKey | undefined, ...args: string[]) => run("git", ["-c", "init.defaultBranch=main", ...args], cwd, key);

async function gitOk(cwd: string, key: GeneratedKey | undefined, ...args: string[]): Promise<string> {
  const r = await git(cwd, key, ...args);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout.trim();
}

/** git@127.0.0.1:<path>.git (the port comes from GIT_SSH_COMMAND). */
const scpUrl = (p: { path_with_namespace: string }) => `git@127.0.0.1:${p.path_with_namespace}.git`;

function tmp(name: string): string {
  return fs.mkdtempSync(path.join(home, `${name}-`));
}

/** Clones, commits a file on `branch` and pushes it; answers git's result. */
async function commitAndPush(dir: string, key: GeneratedKey, branch: string, file: string): Promise<CliResult> {
  await gitOk(dir, key, "checkout", "-B", branch);
  fs.writeFileSync(path.join(dir, file), `${file}\n`);
  await gitOk(dir, key, "add", file);
  await gitOk(dir, key, "commit", "-m", `add ${file}`);
  return git(dir, key, "push", "origin", branch);
}

let owner: Awaited<ReturnType<typeof createUserWithToken>>;
let ownerKey: GeneratedKey;
let priv: { id: number; path_with_namespace: string; ssh_url_to_repo: string };

beforeAll(async () => {
  s = await startTestStack(undefined, { ssh: { port: 0, host: "127.0.0.1" } });
  home = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-git-ssh-"));
  owner = await createUserWithToken(s);
  ownerKey = generateKey();
  await jsonBody(await post("/user/keys", { title: "owner", key: ownerKey.publicKey }, owner.token), 201);
  priv = await jsonBody(await post("/projects", { name: `ssh-${Date.now()}`, visibility: "private", initialize_with_readme: true }, owner.token), 201);
}, 60_000);
afterAll(async () => {
  await s?.destroy();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

describe("git over SSH", () => {
  it("shows the real SSH address in ssh_url_to_repo and keeps its host key in the data directory", async () => {
    expect(priv.ssh_url_to_repo).toBe(`ssh://git@localhost:${s.sshPort}/${priv.path_with_namespace}.git`);
    expect(fs.readFileSync(path.join(s.options.dataDir, "ssh_host_ed25519_key"), "utf8")).toContain("OPENSSH PRIVATE KEY");
  });

  it("clones, fetches and pushes with a user's key, in scp-like and ssh:// form, protocol v2 and v0", async () => {
    const dir = tmp("clone");
    await gitOk(home, ownerKey, "clone", scpUrl(priv), dir);
    expect(fs.readFileSync(path.join(dir, "README.md"), "utf8")).toContain("#");
    const pushed = await commitAndPush(dir, ownerKey, "main", "from-ssh.txt");
    expect(pushed.code, pushed.stderr).toBe(0);
    const file = await jsonBody(await s.api(`/projects/${priv.id}/repository/files/from-ssh.txt?ref=main`, { token: owner.token }), 200);
    expect(Buffer.from(file.content, "base64").toString()).toBe("from-ssh.txt\n");
    const commits = await jsonBody(await s.api(`/projects/${priv.id}/repository/commits?ref_name=main`, { token: owner.token }), 200);
    expect(commits[0].title).toBe("add from-ssh.txt");

    const again = tmp("clone2");
    await gitOk(home, ownerKey, "clone", `ssh://git@127.0.0.1:${s.sshPort}/${priv.path_with_namespace}.git`, again);
    expect(fs.existsSync(path.join(again, "from-ssh.txt"))).toBe(true);
    // Protocol v0 as well as git's default v2.
    const v0 = tmp("clone-v0");
    await gitOk(home, ownerKey, "-c", "protocol.version=0", "clone", scpUrl(priv), v0);
    expect(fs.existsSync(path.join(v0, "from-ssh.txt"))).toBe(true);
    await gitOk(again, ownerKey, "fetch", "origin");
    // The key's last use is recorded.
    const [listed] = await jsonBody(await s.api("/user/keys", { token: owner.token }), 200);
    expect(Date.parse(listed.last_used_at)).toBeGreaterThan(Date.parse(listed.created_at) - 1);
  });

  it("refuses unknown keys, non-members of a private project, blocked users and other commands", async () => {
    const stranger = generateKey();
    const unknown = await git(home, stranger, "clone", scpUrl(priv), tmp("x"));
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("Permission denied (publickey)");

    const other = await createUserWithToken(s);
    const otherKey = generateKey();
    await jsonBody(await post("/user/keys", { title: "other", key: otherKey.publicKey }, other.token), 201);
    const refused = await git(home, otherKey, "clone", scpUrl(priv), tmp("y"));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("The project you were looking for could not be found or you don't have permission to view it.");

    const shell = await run("ssh", ["-p", String(s.sshPort), "git@127.0.0.1"], home, otherKey);
    expect(shell.stdout).toBe(`Welcome to GitLab, @${other.username}!\n`);
    const command = await run("ssh", ["-p", String(s.sshPort), "git@127.0.0.1", "ls", "/"], home, otherKey);
    expect(command.code).toBe(1);
    expect(command.stderr).toContain("Disallowed command");

    // A blocked user's key no longer authenticates.
    const blockedUser = await createUserWithToken(s);
    const blockedKey = generateKey();
    await jsonBody(await post("/user/keys", { title: "b", key: blockedKey.publicKey }, blockedUser.token), 201);
    await jsonBody(await post(`/projects/${priv.id}/members`, { user_id: blockedUser.id, access_level: 30 }, owner.token), 201);
    await gitOk(home, blockedKey, "ls-remote", scpUrl(priv));
    expect(await jsonBody(await post(`/users/${blockedUser.id}/block`, {}), 201)).toBe(true);
    const denied = await git(home, blockedKey, "ls-remote", scpUrl(priv));
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain("Permission denied (publickey)");
  });

  it("applies protected-branch rules: a Developer pushes a feature branch but not main", async () => {
    const dev = await createUserWithToken(s);
    const devKey = generateKey();
    await jsonBody(await post("/user/keys", { title: "dev", key: devKey.publicKey }, dev.token), 201);
    await jsonBody(await post(`/projects/${priv.id}/members`, { user_id: dev.id, access_level: 30 }, owner.token), 201);
    const dir = tmp("dev");
    await gitOk(home, devKey, "clone", scpUrl(priv), dir);
    const toMain = await commitAndPush(dir, devKey, "main", "dev-main.txt");
    expect(toMain.code).not.toBe(0);
    expect(toMain.stderr).toContain("You are not allowed to push code to protected branches on this project.");
    const feature = await commitAndPush(dir, devKey, "feature", "dev-feature.txt");
    expect(feature.code, feature.stderr).toBe(0);
    expect((await jsonBody(await s.api(`/projects/${priv.id}/repository/branches/feature`, { token: owner.token }), 200)).name).toBe("feature");

    // A Reporter reads but may not push.
    const reporter = await createUserWithToken(s);
    const reporterKey = generateKey();
    await jsonBody(await post("/user/keys", { title: "rep", key: reporterKey.publicKey }, reporter.token), 201);
    await jsonBody(await post(`/projects/${priv.id}/members`, { user_id: reporter.id, access_level: 20 }, owner.token), 201);
    const rdir = tmp("rep");
    await gitOk(home, reporterKey, "clone", scpUrl(priv), rdir);
    const rpush = await commitAndPush(rdir, reporterKey, "reporter", "r.txt");
    expect(rpush.code).not.toBe(0);
    expect(rpush.stderr).toContain("You are not allowed to push code to this project.");
  });

  it("lets deploy keys read, and push only with can_push, never to protected branches", async () => {
    const readKey = generateKey();
    const writeKey = generateKey();
    await jsonBody(await post(`/projects/${priv.id}/deploy_keys`, { title: "ro", key: readKey.publicKey }, owner.token), 201);
    await jsonBody(await post(`/projects/${priv.id}/deploy_keys`, { title: "rw", key: writeKey.publicKey, can_push: true }, owner.token), 201);

    const ro = tmp("ro");
    await gitOk(home, readKey, "clone", scpUrl(priv), ro);
    const roPush = await commitAndPush(ro, readKey, "ro-branch", "ro.txt");
    expect(roPush.code).not.toBe(0);
    expect(roPush.stderr).toContain("This deploy key does not have write access to this project.");

    const rw = tmp("rw");
    await gitOk(home, writeKey, "clone", scpUrl(priv), rw);
    const rwPush = await commitAndPush(rw, writeKey, "deploy-branch", "rw.txt");
    expect(rwPush.code, rwPush.stderr).toBe(0);
    const rwMain = await commitAndPush(rw, writeKey, "main", "rw-main.txt");
    expect(rwMain.code).not.toBe(0);
    expect(rwMain.stderr).toContain("You are not allowed to push code to protected branches on this project.");

    // A deploy key sees only the projects it is enabled in.
    const otherProject = await jsonBody(
      await post("/projects", { name: `ssh-other-${Date.now()}`, visibility: "private", initialize_with_readme: true }, owner.token),
      201,
    );
    const elsewhere = await git(home, readKey, "clone", scpUrl(otherProject), tmp("else"));
    expect(elsewhere.code).not.toBe(0);
    expect(elsewhere.stderr).toContain("The project you were looking for could not be found");
  });
});

describe("group SSH certificates", () => {
  /** `ssh-keygen -s ca -I <id> -n <principal>`: the certificate lands next to the user's key. */
  function sign(ca: GeneratedKey, user: GeneratedKey, id: string, validity = "+1h") {
    execFileSync("ssh-keygen", ["-q", "-s", ca.privatePath, "-I", id, "-n", id, "-V", validity, `${user.privatePath}.pub`]);
  }

  it("lets a top-level group's Owner add, list and remove CAs, with GitLab's refusals", async () => {
    const g = await jsonBody(await post("/groups", { name: `ca-${Date.now()}`, path: `ca-${Date.now()}` }, owner.token), 201);
    const ca = generateKey();
    const created = await jsonBody(await post(`/groups/${g.id}/ssh_certificates`, { title: "corp CA", key: ca.publicKey }, owner.token), 201);
    expect(created).toEqual({ id: expect.any(Number), title: "corp CA", key: ca.publicKey, created_at: expect.any(String) });
    expect(await jsonBody(await s.api(`/groups/${g.id}/ssh_certificates`, { token: owner.token }), 200)).toEqual([created]);
    expect(await jsonBody(await post(`/groups/${g.id}/ssh_certificates`, { title: "again", key: ca.publicKey }, owner.token), 422)).toEqual({
      message: "Validation failed: Fingerprint must be unique. This CA has already been configured for this namespace.",
    });
    expect(await jsonBody(await post(`/groups/${g.id}/ssh_certificates`, { title: "bad", key: "ssh-ed25519 AAAA" }, owner.token), 422)).toEqual({
      message: "Validation failed: Invalid key",
    });
    expect(await jsonBody(await post(`/groups/${g.id}/ssh_certificates`, {}, owner.token), 400)).toEqual({ error: "key is missing, title is missing" });
    const sub = await jsonBody(await post("/groups", { name: "sub", path: "sub", parent_id: g.id }, owner.token), 201);
    expect(await jsonBody(await post(`/groups/${sub.id}/ssh_certificates`, { title: "x", key: generateKey().publicKey }, owner.token), 403)).toEqual({
      message: "403 Forbidden - Group",
    });
    const member = await createUserWithToken(s);
    await jsonBody(await post(`/groups/${g.id}/members`, { user_id: member.id, access_level: 40 }, owner.token), 201);
    expect((await s.api(`/groups/${g.id}/ssh_certificates`, { token: member.token })).status).toBe(403);
    expect((await s.api(`/groups/${g.id}/ssh_certificates/${created.id}`, { method: "DELETE", token: member.token })).status).toBe(403);
    expect((await s.api(`/groups/${g.id}/ssh_certificates/${created.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    expect(await jsonBody(await s.api(`/groups/${g.id}/ssh_certificates/${created.id}`, { method: "DELETE", token: owner.token }), 404)).toEqual({
      message: "404 SSH Certificate Not Found",
    });
  });

  it("takes user certificates the group's CA signed for that group's projects only", async () => {
    const suffix = Date.now();
    const g = await jsonBody(await post("/groups", { name: `certs-${suffix}`, path: `certs-${suffix}` }, owner.token), 201);
    const other = await jsonBody(await post("/groups", { name: `nocert-${suffix}`, path: `nocert-${suffix}` }, owner.token), 201);
    const inGroup = await jsonBody(await post("/projects", { name: "inside", namespace_id: g.id, initialize_with_readme: true }, owner.token), 201);
    const outside = await jsonBody(await post("/projects", { name: "outside", namespace_id: other.id, initialize_with_readme: true }, owner.token), 201);
    const ca = generateKey();
    const cert = await jsonBody(await post(`/groups/${g.id}/ssh_certificates`, { title: "CA", key: ca.publicKey }, owner.token), 201);

    // A key the user never registered, certified by the group's CA for their username.
    const userKey = generateKey();
    sign(ca, userKey, owner.username);
    const dir = tmp("cert");
    await gitOk(home, userKey, "clone", scpUrl(inGroup), dir);
    const pushed = await commitAndPush(dir, userKey, "main", "by-cert.txt");
    expect(pushed.code, pushed.stderr).toBe(0);
    // The owner may reach the other group's project with a key, not with this certificate.
    const refused = await git(home, userKey, "clone", scpUrl(outside), tmp("out"));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("The project you were looking for could not be found");

    // Signed by another CA, or for someone unknown: refused at authentication.
    const rogue = generateKey();
    const rogueKey = generateKey();
    sign(rogue, rogueKey, owner.username);
    expect((await git(home, rogueKey, "ls-remote", scpUrl(inGroup))).stderr).toContain("Permission denied (publickey)");
    const nobodyKey = generateKey();
    sign(ca, nobodyKey, "no-such-user");
    expect((await git(home, nobodyKey, "ls-remote", scpUrl(inGroup))).stderr).toContain("Permission denied (publickey)");
    // An expired certificate.
    const oldKey = generateKey();
    sign(ca, oldKey, owner.username, "20200101:20200102");
    expect((await git(home, oldKey, "ls-remote", scpUrl(inGroup))).stderr).toContain("Permission denied (publickey)");

    // Removing the CA ends it.
    expect((await s.api(`/groups/${g.id}/ssh_certificates/${cert.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    expect((await git(home, userKey, "ls-remote", scpUrl(inGroup))).stderr).toContain("Permission denied (publickey)");
  });
});
