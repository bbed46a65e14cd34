import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { createClient } from "@quarry/grpc";
import { hookV1 } from "@quarry/proto";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";
import { gitHttp } from "./git-cli.ts";

let s: TestStack;
let home: string;
let developer: Awaited<ReturnType<typeof createUserWithToken>>;
let reporter: Awaited<ReturnType<typeof createUserWithToken>>;
let outsider: Awaited<ReturnType<typeof createUserWithToken>>;
let pub: { id: number; path_with_namespace: string };
let priv: { id: number; path_with_namespace: string };

const ACCESS_DENIED =
  "HTTP Basic: Access denied. If a password was provided for Git authentication, the password was incorrect or you're required to use a token instead of a password. If a token was provided, it was either incorrect, expired, or improperly scoped.";

/** Runs the real git CLI (see git-cli.ts). */
const git = (cwd: string, ...args: string[]) => gitHttp(home, cwd, ...args);

async function gitOk(cwd: string, ...args: string[]): Promise<string> {
  const r = await git(cwd, ...args);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout.trim();
}

/** The clone URL with credentials (`user:token@`), or anonymous. */
function url(project: { path_with_namespace: string }, creds?: { username: string; token: string }, suffix = ".git"): string {
  const u = new URL(`${s.url}/${project.path_with_namespace}${suffix}`);
  if (creds) {
    u.username = creds.username;
    u.password = creds.token;
  }
  return u.toString();
}

let dirs = 0;
const tempDir = () => fs.mkdtempSync(path.join(home, `w${dirs++}-`));

/** A fresh clone of `project` (as `creds`) with one new commit adding `file`. */
async function cloneWithCommit(project: { path_with_namespace: string }, creds: { username: string; token: string }, file: string): Promise<string> {
  const dir = path.join(tempDir(), "repo");
  await gitOk(home, "clone", url(project, creds), dir);
  fs.writeFileSync(path.join(dir, file), `${file}\n`);
  await gitOk(dir, "add", file);
  await gitOk(dir, "commit", "-m", `Add ${file}`);
  return dir;
}

const branchNames = async (projectId: number) =>
  ((await (await s.api(`/projects/${projectId}/repository/branches`)).json()) as { name: string; commit: { id: string } }[]).reduce(
    (m, b) => m.set(b.name, b.commit.id),
    new Map<string, string>(),
  );

beforeAll(async () => {
  s = await startTestStack();
  home = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-git-http-"));
  developer = await createUserWithToken(s);
  reporter = await createUserWithToken(s);
  outsider = await createUserWithToken(s);
  const create = async (name: string, visibility: string) =>
    (await (await s.api("/projects", { method: "POST", json: { name, visibility, initialize_with_readme: true } })).json()) as {
      id: number;
      path_with_namespace: string;
    };
  pub = await create("open-code", "public");
  priv = await create("secret-code", "private");
  for (const [user, level] of [
    [developer, 30],
    [reporter, 20],
  ] as const) {
    const res = await s.api(`/projects/${priv.id}/members`, { method: "POST", json: { user_id: user.id, access_level: level } });
    expect(res.status).toBe(201);
  }
  // The README made `main` a protected default branch (Maintainers only); Developers push to it
  // here until the protected-branch case protects it again.
  expect((await s.api(`/projects/${priv.id}/protected_branches/main`, { method: "DELETE" })).status).toBe(204);
});
afterAll(async () => {
  await s?.destroy();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

describe("git clone and fetch over smart HTTP", () => {
  it("clones a public project anonymously, with protocol v2 and v0, with and without .git", async () => {
    for (const [protocol, suffix] of [
      ["2", ".git"],
      ["0", ""],
    ] as const) {
      const dir = path.join(tempDir(), "clone");
      await gitOk(home, "-c", `protocol.version=${protocol}`, "clone", url(pub, undefined, suffix), dir);
      expect(fs.readFileSync(path.join(dir, "README.md"), "utf8")).toContain("open-code");
      expect(await gitOk(dir, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
    }
  });

  it("advertises refs with git's content type, no caching and the service line", async () => {
    const res = await fetch(`${s.url}/${pub.path_with_namespace}.git/info/refs?service=git-upload-pack`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-git-upload-pack-advertisement");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const body = await res.text();
    expect(body.startsWith("001e# service=git-upload-pack\n0000")).toBe(true);
    expect(body).toContain(" refs/heads/main");
    const v2 = await fetch(`${s.url}/${pub.path_with_namespace}.git/info/refs?service=git-upload-pack`, { headers: { "Git-Protocol": "version=2" } });
    expect((await v2.text()).startsWith("000eversion 2\n")).toBe(true);
  });

  it("accepts a gzipped upload-pack request", async () => {
    const head = (await branchNames(pub.id)).get("main")!;
    const request = `0032want ${head}\n00000009done\n`;
    const res = await fetch(`${s.url}/${pub.path_with_namespace}.git/git-upload-pack`, {
      method: "POST",
      headers: { "Content-Type": "application/x-git-upload-pack-request", "Content-Encoding": "gzip" },
      body: gzipSync(request),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-git-upload-pack-result");
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.subarray(0, 12).toString("latin1")).toBe("0008NAK\nPACK");
  });

  it("asks anonymous callers of private projects and any anonymous push for credentials", async () => {
    for (const target of [
      `${priv.path_with_namespace}.git/info/refs?service=git-upload-pack`,
      `${pub.path_with_namespace}.git/info/refs?service=git-receive-pack`,
      `nobody/nothing.git/info/refs?service=git-upload-pack`,
    ]) {
      const res = await fetch(`${s.url}/${target}`);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Basic realm="GitLab"');
      expect(await res.text()).toBe(ACCESS_DENIED);
    }
    const r = await git(home, "clone", url(priv), path.join(tempDir(), "x"));
    expect(r.code).not.toBe(0);
  });

  it("clones a private project with a token as the password, under any username", async () => {
    for (const creds of [
      { username: "root", token: s.rootToken },
      { username: "oauth2", token: developer.token },
    ]) {
      const dir = path.join(tempDir(), "clone");
      await gitOk(home, "clone", url(priv, creds), dir);
      expect(fs.existsSync(path.join(dir, "README.md"))).toBe(true);
    }
  });

  it("refuses wrong tokens (401), hides private projects from outsiders (404) and checks token scopes (403)", async () => {
    const basic = (user: string, token: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${token}`).toString("base64")}` });
    const refs = (p: string, headers: Record<string, string>, service = "git-upload-pack") =>
      fetch(`${s.url}/${p}.git/info/refs?service=${service}`, { headers });

    const wrong = await refs(priv.path_with_namespace, basic("root", "glpat-wrong"));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe('Basic realm="GitLab"');

    const hidden = await refs(priv.path_with_namespace, basic(outsider.username, outsider.token));
    expect(hidden.status).toBe(404);
    expect(await hidden.text()).toBe("The project you were looking for could not be found or you don't have permission to view it.");
    const r = await git(home, "clone", url(priv, outsider), path.join(tempDir(), "x"));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("The project you were looking for could not be found");

    const readOnly = await createUserWithToken(s, ["read_repository"]);
    expect((await refs(pub.path_with_namespace, basic(readOnly.username, readOnly.token))).status).toBe(200);
    const noPush = await refs(pub.path_with_namespace, basic(readOnly.username, readOnly.token), "git-receive-pack");
    expect(noPush.status).toBe(403);
    expect(await noPush.text()).toBe("You are not allowed to upload code.");
    const userOnly = await createUserWithToken(s, ["read_user"]);
    const noRead = await refs(pub.path_with_namespace, basic(userOnly.username, userOnly.token));
    expect(noRead.status).toBe(403);
    expect(await noRead.text()).toBe("You are not allowed to download code.");
  });
});

describe("git push over smart HTTP", () => {
  it("pushes a commit, a new branch and a tag; they appear in the API and publish push and tag_push events", async () => {
    const dir = await cloneWithCommit(priv, developer, "feature.txt");
    const head = await gitOk(dir, "rev-parse", "HEAD");
    const before = (await branchNames(priv.id)).get("main")!;
    await gitOk(dir, "push", "origin", "main");
    await gitOk(dir, "push", "origin", "main:topic");
    await gitOk(dir, "tag", "-a", "v1.0", "-m", "Release 1.0");
    await gitOk(dir, "push", "origin", "v1.0");

    const branches = await branchNames(priv.id);
    expect(branches.get("main")).toBe(head);
    expect(branches.get("topic")).toBe(head);

    const hook = createClient(hookV1.HookService, s.addresses.hook, { deadlineMs: 5000 });
    const events = async (eventName: string) => (await hook.ListRecordedEvents({ eventName, limit: 1000 })).events.map((e) => JSON.parse(e.payloadJson));
    const push = await waitFor(async () => (await events("push")).find((e) => e.project_id === priv.id && e.ref === "refs/heads/main" && e.after === head));
    expect(push).toMatchObject({
      object_kind: "push",
      before,
      checkout_sha: head,
      user_username: developer.username,
      total_commits_count: 1,
      commits: [{ id: head, title: "Add feature.txt", added: ["feature.txt"], modified: [], removed: [], author: { name: "Dev", email: "dev@example.com" } }],
      project: { id: priv.id, path_with_namespace: priv.path_with_namespace, git_http_url: `${s.url}/${priv.path_with_namespace}.git` },
      repository: { name: "secret-code" },
    });
    const created = await waitFor(async () => (await events("push")).find((e) => e.project_id === priv.id && e.ref === "refs/heads/topic"));
    // A new branch lists what the default branch lacks: nothing here.
    expect(created).toMatchObject({ before: "0".repeat(40), after: head, total_commits_count: 0, commits: [] });
    const tag = await waitFor(async () => (await events("tag_push")).find((e) => e.project_id === priv.id && e.ref === "refs/tags/v1.0"));
    expect(tag).toMatchObject({ object_kind: "tag_push", before: "0".repeat(40), checkout_sha: head, message: "Release 1.0", total_commits_count: 1 });
    expect(tag.after).toBe(await gitOk(dir, "rev-parse", "v1.0"));
    hook.close();

    // Another clone fetches what was pushed.
    const other = path.join(tempDir(), "other");
    await gitOk(home, "clone", url(priv, developer), other);
    await gitOk(dir, "commit", "--allow-empty", "-m", "Second");
    await gitOk(dir, "push", "origin", "main");
    await gitOk(other, "fetch", "origin");
    expect(await gitOk(other, "rev-parse", "origin/main")).toBe(await gitOk(dir, "rev-parse", "HEAD"));
    expect(await gitOk(other, "tag", "-l")).toBe("v1.0");
  });

  it("refuses a Reporter's push with 403", async () => {
    const dir = await cloneWithCommit(priv, reporter, "reporter.txt");
    const before = (await branchNames(priv.id)).get("main");
    const r = await git(dir, "push", "origin", "main");
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("You are not allowed to push code to this project.");
    expect((await branchNames(priv.id)).get("main")).toBe(before);
  });

  it("applies protected-branch rules: no Developer push, no force push, no deletion", async () => {
    const protect = await s.api(`/projects/${priv.id}/protected_branches`, {
      method: "POST",
      json: { name: "main", push_access_level: 40, merge_access_level: 40 },
    });
    expect(protect.status).toBe(201);

    const dir = await cloneWithCommit(priv, developer, "blocked.txt");
    const before = (await branchNames(priv.id)).get("main");
    const denied = await git(dir, "push", "origin", "main");
    expect(denied.code).not.toBe(0);
    expect(denied.stderr).toContain("remote: GitLab: You are not allowed to push code to protected branches on this project.");
    expect(denied.stderr).toContain("[remote rejected] main -> main (pre-receive hook declined)");
    expect((await branchNames(priv.id)).get("main")).toBe(before);

    // The administrator may push, but not rewrite history.
    const admin = { username: "root", token: s.rootToken };
    const rootDir = path.join(tempDir(), "root");
    await gitOk(home, "clone", url(priv, admin), rootDir);
    await gitOk(rootDir, "commit", "--amend", "--allow-empty", "-m", "Rewritten");
    const forced = await git(rootDir, "push", "--force", "origin", "main");
    expect(forced.code).not.toBe(0);
    expect(forced.stderr).toContain("remote: GitLab: You are not allowed to force push code to a protected branch on this project.");
    expect((await branchNames(priv.id)).get("main")).toBe(before);

    const deleted = await git(rootDir, "push", "origin", ":topic", ":main");
    expect(deleted.code).not.toBe(0);
    expect(deleted.stderr).toContain("remote: GitLab: The default branch of a project cannot be deleted.");
    expect((await branchNames(priv.id)).has("topic")).toBe(true);

    const allow = await s.api(`/projects/${priv.id}/protected_branches/main`, { method: "PATCH", json: { allow_force_push: true } });
    expect(allow.status).toBe(200);
    await gitOk(rootDir, "push", "--force", "origin", "main");
    expect((await branchNames(priv.id)).get("main")).toBe(await gitOk(rootDir, "rev-parse", "HEAD"));
  });
});
