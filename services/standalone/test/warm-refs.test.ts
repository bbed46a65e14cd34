// repo-service keeps a repository's refs in memory (branches, HEAD, tags) and serves warm reads
// from there: every way a ref changes — a push over HTTP, an API commit, a branch or tag created or
// deleted through the API, a push over SSH — must show in the very next read.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliResult, gitEnv, gitHttp, runCli } from "./git-cli.ts";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { type GeneratedKey, generateKey } from "./ssh-keygen.ts";

let s: TestStack;
let home: string;
let owner: Awaited<ReturnType<typeof createUserWithToken>>;
let key: GeneratedKey;
let project: { id: number; path_with_namespace: string };
const { post, del } = jsonRequests(() => s);

const SSH = "ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o BatchMode=yes -o LogLevel=ERROR";

async function ok(r: Promise<CliResult>): Promise<string> {
  const res = await r;
  if (res.code !== 0) throw new Error(`git failed (${res.code}): ${res.stderr}`);
  return res.stdout.trim();
}

/** git over HTTP with the owner's token in the URL. */
const httpGit = (cwd: string, ...args: string[]) => ok(gitHttp(home, cwd, ...args));
/** git over SSH with the owner's key. */
const sshGit = (cwd: string, ...args: string[]) =>
  ok(runCli("git", args, cwd, gitEnv(home, { GIT_SSH_COMMAND: `${SSH} -i ${key.privatePath} -p ${s.sshPort}` })));

function httpUrl(): string {
  const u = new URL(`${s.url}/${project.path_with_namespace}.git`);
  u.username = owner.username;
  u.password = owner.token;
  return u.toString();
}

/** Branch name → head commit id, as the branch list shows them. */
async function branches(): Promise<Map<string, string>> {
  const list = (await jsonBody(await s.api(`/projects/${project.id}/repository/branches?per_page=100`, { token: owner.token }), 200)) as {
    name: string;
    commit: { id: string };
  }[];
  return new Map(list.map((b) => [b.name, b.commit.id]));
}

/** Tag name → commit id, as the tag list shows them. */
async function tags(): Promise<Map<string, string>> {
  const list = (await jsonBody(await s.api(`/projects/${project.id}/repository/tags?per_page=100`, { token: owner.token }), 200)) as {
    name: string;
    commit: { id: string };
  }[];
  return new Map(list.map((t) => [t.name, t.commit.id]));
}

const branch = (name: string) => s.api(`/projects/${project.id}/repository/branches/${encodeURIComponent(name)}`, { token: owner.token });

async function commitFile(dir: string, file: string): Promise<string> {
  fs.writeFileSync(path.join(dir, file), `${file}\n`);
  await httpGit(dir, "add", file);
  await httpGit(dir, "commit", "-q", "-m", `Add ${file}`);
  return httpGit(dir, "rev-parse", "HEAD");
}

beforeAll(async () => {
  s = await startTestStack(undefined, { ssh: { port: 0, host: "127.0.0.1" } });
  home = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-warm-refs-"));
  owner = await createUserWithToken(s);
  key = generateKey();
  await jsonBody(await post("/user/keys", { title: "owner", key: key.publicKey }, owner.token), 201);
  project = await jsonBody(await post("/projects", { name: `warm-${Date.now()}`, initialize_with_readme: true }, owner.token), 201);
}, 60_000);
afterAll(async () => {
  await s?.destroy();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

describe("refs kept in memory", () => {
  it("shows every ref change in the next read: HTTP push, API commit, branch and tag writes, SSH push", async () => {
    const dir = path.join(home, "clone");
    await httpGit(home, "clone", "-q", httpUrl(), dir);
    // Warm every cached read first.
    const before = await branches();
    expect([...before.keys()]).toEqual(["main"]);
    expect(await tags()).toEqual(new Map());
    await jsonBody(await branch("main"), 200);

    // A push over HTTP: main moves, a new branch and a tag appear.
    const pushed = await commitFile(dir, "http.txt");
    await httpGit(dir, "tag", "http-tag");
    await httpGit(dir, "push", "-q", "origin", "main", "main:refs/heads/http-branch", "http-tag");
    expect(await branches()).toEqual(
      new Map([
        ["http-branch", pushed],
        ["main", pushed],
      ]),
    );
    expect((await jsonBody(await branch("main"), 200)).commit.id).toBe(pushed);
    expect(await tags()).toEqual(new Map([["http-tag", pushed]]));

    // An API commit moves main.
    const committed = await jsonBody(
      await post(
        `/projects/${project.id}/repository/commits`,
        { branch: "main", commit_message: "API commit", actions: [{ action: "create", file_path: "api.txt", content: "api\n" }] },
        owner.token,
      ),
      201,
    );
    expect((await branches()).get("main")).toBe(committed.id);
    expect((await jsonBody(await branch("main"), 200)).commit.id).toBe(committed.id);

    // A branch deleted through the API is gone at once; one created is there at once.
    await jsonBody(await del(`/projects/${project.id}/repository/branches/http-branch`, owner.token), 204);
    expect((await branches()).has("http-branch")).toBe(false);
    await jsonBody(await branch("http-branch"), 404);
    await jsonBody(await post(`/projects/${project.id}/repository/branches`, { branch: "api-branch", ref: "main" }, owner.token), 201);
    expect((await branches()).get("api-branch")).toBe(committed.id);

    // Tags through the API.
    await jsonBody(await post(`/projects/${project.id}/repository/tags`, { tag_name: "api-tag", ref: "main", message: "annotated" }, owner.token), 201);
    expect((await tags()).get("api-tag")).toBe(committed.id);
    await jsonBody(await del(`/projects/${project.id}/repository/tags/http-tag`, owner.token), 204);
    expect((await tags()).has("http-tag")).toBe(false);

    // A push over SSH: a new commit on a new branch, and a tag.
    await sshGit(dir, "pull", "-q", "--ff-only", `ssh://git@127.0.0.1/${project.path_with_namespace}.git`, "main");
    const overSsh = await commitFile(dir, "ssh.txt");
    await httpGit(dir, "tag", "ssh-tag");
    await sshGit(dir, "push", "-q", `git@127.0.0.1:${project.path_with_namespace}.git`, "HEAD:refs/heads/ssh-branch", "ssh-tag");
    expect((await branches()).get("ssh-branch")).toBe(overSsh);
    expect((await jsonBody(await branch("ssh-branch"), 200)).commit.id).toBe(overSsh);
    expect((await tags()).get("ssh-tag")).toBe(overSsh);
    // … and SSH deletions too.
    await sshGit(dir, "push", "-q", `git@127.0.0.1:${project.path_with_namespace}.git`, ":refs/heads/ssh-branch", ":refs/tags/ssh-tag");
    expect((await branches()).has("ssh-branch")).toBe(false);
    expect((await tags()).has("ssh-tag")).toBe(false);
  }, 120_000);

  it("shows the default branch protected as soon as a first push creates it (protection rules are cached too)", async () => {
    const empty = await jsonBody(await post("/projects", { name: `warm-empty-${Date.now()}` }, owner.token), 201);
    const api = (p: string) => s.api(`/projects/${empty.id}/repository${p}`, { token: owner.token });
    expect(await jsonBody(await api("/branches"), 200)).toEqual([]);
    const dir = path.join(home, "empty");
    fs.mkdirSync(dir);
    await httpGit(dir, "init", "-q", "-b", "main");
    await commitFile(dir, "first.txt");
    const u = new URL(`${s.url}/${empty.path_with_namespace}.git`);
    u.username = owner.username;
    u.password = owner.token;
    await httpGit(dir, "push", "-q", u.toString(), "main");
    expect(await jsonBody(await api("/branches/main"), 200)).toMatchObject({ name: "main", protected: true, default: true });
    expect((await jsonBody(await api("/branches"), 200))[0]).toMatchObject({ name: "main", protected: true });
  }, 60_000);
});
