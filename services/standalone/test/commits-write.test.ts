import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import path from "node:path";
import { createClient } from "@quarry/grpc";
import { hookV1 } from "@quarry/proto";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let projectId: number;
let reporter: Awaited<ReturnType<typeof createUserWithToken>>;

beforeAll(async () => {
  s = await startTestStack();
  projectId = (await s.gitlab().Projects.create({ name: "writes", initializeWithReadme: true })).id;
  reporter = await createUserWithToken(s);
  await s.api(`/projects/${projectId}/members`, { method: "POST", json: { user_id: reporter.id, access_level: 20 } });
});
afterAll(() => s?.destroy());

/** Runs git in the project's bare repository. */
function git(id: number, ...args: string[]): string {
  const h = createHash("sha256").update(String(id)).digest("hex");
  const gitDir = path.join(s.options.dataDir, "repositories", `@hashed/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git`);
  const env = { ...process.env, GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@example.com" };
  return execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", env }).trim();
}
const gitBytes = (id: number, rev: string): Buffer => {
  const h = createHash("sha256").update(String(id)).digest("hex");
  return execFileSync("git", [
    "--git-dir",
    path.join(s.options.dataDir, "repositories", `@hashed/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git`),
    "cat-file",
    "blob",
    rev,
  ]);
};

const commits = `/commits`;
const post = (body: unknown, o: { token?: string; id?: number; suffix?: string } = {}) =>
  s.api(`/projects/${o.id ?? projectId}/repository${commits}${o.suffix ?? ""}`, { method: "POST", json: body, token: o.token });
const form = (body: string, suffix = "") =>
  s.api(`/projects/${projectId}/repository${commits}${suffix}`, { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> });

describe("POST /projects/:id/repository/commits", () => {
  it("commits several actions with @gitbeaker/rest and answers 201 with the commit's details", async () => {
    const before = git(projectId, "rev-parse", "refs/heads/main");
    const commit = await s.gitlab().Commits.create(projectId, "main", "Add docs\n\nMore words.", [
      { action: "create", filePath: "docs/a.md", content: "one\ntwo\n" },
      { action: "update", filePath: "README.md", content: "# Writes\n\nNew.\n" },
    ]);
    expect(commit).toMatchObject({
      id: git(projectId, "rev-parse", "refs/heads/main"),
      short_id: git(projectId, "rev-parse", "--short=8", "refs/heads/main"),
      title: "Add docs",
      message: "Add docs\n\nMore words.",
      parent_ids: [before],
      author_name: "Administrator",
      committer_name: "Administrator",
      stats: { additions: 5, deletions: 1, total: 6 },
      status: null,
      project_id: projectId,
      last_pipeline: null,
      trailers: {},
      web_url: `${s.url}/root/writes/-/commit/${git(projectId, "rev-parse", "refs/heads/main")}`,
    });
    expect(commit.created_at).toBe(commit.committed_date);
    expect(git(projectId, "show", "main:docs/a.md")).toBe("one\ntwo");
  });

  it("takes form-encoded actions[][key] sequences, one action per repeated key", async () => {
    const body = [
      "branch=main",
      "commit_message=Form+commit",
      "actions[][action]=create",
      "actions[][file_path]=form/one.txt",
      `actions[][content]=${encodeURIComponent("a+b & c = ü\n")}`,
      "actions[][action]=create",
      "actions[][file_path]=form/two.sh",
      "actions[][execute_filemode]=true",
      "actions[][action]=move",
      "actions[][file_path]=form/moved.md",
      "actions[][previous_path]=docs/a.md",
      "author_name=Grace+Hopper",
      "author_email=grace@example.com",
      "stats=false",
    ].join("&");
    const { status, body: commit } = await json(await form(body));
    expect(status).toBe(201);
    expect(commit).toMatchObject({ title: "Form commit", author_name: "Grace Hopper", author_email: "grace@example.com", committer_name: "Administrator" });
    expect(commit).not.toHaveProperty("stats");
    expect(git(projectId, "show", "main:form/one.txt")).toBe("a+b & c = ü");
    expect(git(projectId, "ls-tree", "main", "form/two.sh")).toMatch(/^100755 blob .*\tform\/two\.sh$/);
    expect(git(projectId, "show", "main:form/two.sh")).toBe("");
    expect(git(projectId, "show", "main:form/moved.md")).toBe("one\ntwo");
  });

  it("round-trips binary base64 content byte for byte", async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => 255 - i));
    const res = await post({
      branch: "main",
      commit_message: "Binary",
      actions: [{ action: "create", file_path: "bin/data", content: bytes.toString("base64"), encoding: "base64" }],
    });
    expect(res.status).toBe(201);
    expect(Buffer.compare(gitBytes(projectId, "main:bin/data"), bytes)).toBe(0);
  });

  it("creates a branch from start_branch / start_sha, overwrites with force, accepts its own project as start_project", async () => {
    const main = git(projectId, "rev-parse", "refs/heads/main");
    const created = await json(
      await post({ branch: "feat", start_branch: "main", commit_message: "F", actions: [{ action: "create", file_path: "f.txt", content: "f" }] }),
    );
    expect(created.status).toBe(201);
    expect(created.body.parent_ids).toEqual([main]);
    const again = await json(
      await post({ branch: "feat", start_sha: main, commit_message: "G", actions: [{ action: "create", file_path: "g.txt", content: "g" }] }),
    );
    expect(again).toEqual({ status: 400, body: { message: "A branch called 'feat' already exists. Switch to that branch in order to make changes" } });
    const forced = await json(
      await post({
        branch: "feat",
        start_sha: main,
        force: true,
        start_project: projectId,
        commit_message: "G",
        actions: [{ action: "create", file_path: "g.txt", content: "g" }],
      }),
    );
    expect(forced.status).toBe(201);
    expect(forced.body.parent_ids).toEqual([main]);
    expect(git(projectId, "ls-tree", "--name-only", "feat", "f.txt", "g.txt")).toBe("g.txt");
  });

  it("answers GitLab's errors with exact bodies", async () => {
    const action = { action: "create", file_path: "x.txt", content: "x" };
    expect(await json(await post({ branch: "main", commit_message: "m" }))).toEqual({ status: 400, body: { error: "actions is missing" } });
    expect(await json(await post({ actions: [action] }))).toEqual({ status: 400, body: { error: "branch is missing, commit_message is missing" } });
    expect(await json(await post({ branch: "main", commit_message: "m", actions: [] }))).toEqual({ status: 400, body: { error: "actions is empty" } });
    expect(await json(await post({ branch: " ", commit_message: "m", actions: [action] }))).toEqual({ status: 400, body: { error: "branch is empty" } });
    expect(
      await json(
        await post({
          branch: "main",
          commit_message: "m",
          actions: [{ content: "x" }, { action: "rename", file_path: "a" }, { action: "update", file_path: "a" }],
        }),
      ),
    ).toEqual({
      status: 400,
      body: {
        error:
          "actions[0][action] is missing, actions[0][file_path] is missing, actions[1][action] does not have a valid value, actions[2][content] is missing",
      },
    });
    expect(
      await json(
        await post({
          branch: "main",
          commit_message: "m",
          actions: [
            { action: "move", file_path: "a" },
            { action: "chmod", file_path: "b" },
            { ...action, encoding: "hex" },
          ],
        }),
      ),
    ).toEqual({
      status: 400,
      body: { error: "actions[0][previous_path] is missing, actions[1][execute_filemode] is missing, actions[2][encoding] does not have a valid value" },
    });
    expect(await json(await post({ branch: "main", commit_message: "m", start_branch: "main", start_sha: "abc", actions: [action] }))).toEqual({
      status: 400,
      body: { error: "start_branch, start_sha are mutually exclusive" },
    });
    const refused = async (a: unknown, message: string, extra: Record<string, unknown> = {}) =>
      expect(await json(await post({ branch: "main", commit_message: "m", actions: [a], ...extra }))).toEqual({ status: 400, body: { message } });
    await refused({ action: "create", file_path: "README.md", content: "x" }, "A file with this name already exists");
    await refused({ action: "update", file_path: "nope.txt", content: "x" }, "A file with this name doesn't exist");
    await refused({ action: "delete", file_path: "nope.txt" }, "A file with this name doesn't exist");
    await refused({ action: "move", file_path: "README.md", previous_path: "f.txt" }, "A file with this name doesn't exist");
    await refused({ action: "create", file_path: "a/../../etc/passwd", content: "x" }, "Path cannot include directory traversal");
    await refused({ action: "create", file_path: "/etc/passwd", content: "x" }, "invalid path: '/etc/passwd'");
    await refused(
      { action: "update", file_path: "bin/data", content: gitBytes(projectId, "main:bin/data").toString("base64"), encoding: "base64" },
      "Your changes could not be committed: the commit would be empty (the content is unchanged)",
    );
    const readme = git(projectId, "log", "-1", "--format=%H", "main", "--", "README.md");
    await refused(
      { action: "update", file_path: "README.md", content: "x", last_commit_id: git(projectId, "rev-list", "--max-parents=0", "main") },
      "The file has changed since you started editing it: README.md",
    );
    expect(
      (
        await post({
          branch: "main",
          commit_message: "ok",
          actions: [{ action: "update", file_path: "README.md", content: "fresh\n", last_commit_id: readme }],
        })
      ).status,
    ).toBe(201);
    await refused(action, "You can only create or edit files when you are on a branch", { branch: "nope" });
    await refused(action, "You can only create or edit files when you are on a branch", { branch: "new", start_branch: "nope" });
    await refused(action, "Invalid start_sha 'abc'", { branch: "new", start_sha: "abc" });

    const asReporter = await json(await post({ branch: "main", commit_message: "m", actions: [action] }, { token: reporter.token }));
    expect(asReporter.status).toBe(403);
    const other = await s.gitlab().Projects.create({ name: "elsewhere", initializeWithReadme: true });
    expect(await json(await post({ branch: "main", commit_message: "m", start_project: other.id, actions: [action] }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden - Project is not included in the fork network for Administrator / elsewhere" },
    });
    expect((await post({ branch: "main", commit_message: "m", start_project: 999999, actions: [action] })).status).toBe(404);
  });

  it("lets racing writers on one branch never lose a commit: each one wins (201) or gets 400, history holds exactly the winners", async () => {
    const before = git(projectId, "rev-parse", "refs/heads/main");
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        post({ branch: "main", commit_message: `Race ${i}`, actions: [{ action: "create", file_path: `race/${i}.txt`, content: String(i) }] }).then(json),
      ),
    );
    const winners = results.filter((r) => r.status === 201).map((r) => r.body.id as string);
    const losers = results.filter((r) => r.status !== 201);
    expect(winners.length).toBeGreaterThanOrEqual(1);
    for (const l of losers) expect(l).toEqual({ status: 400, body: { message: "Could not update branch main. Please refresh and try again." } });
    const history = git(projectId, "rev-list", `${before}..refs/heads/main`).split("\n").filter(Boolean);
    expect(new Set(history)).toEqual(new Set(winners));
    expect(git(projectId, "for-each-ref", "--format=%(refname)", "refs/")).toBe("refs/heads/feat\nrefs/heads/main");
  });

  it("publishes one push event per write, carrying its commit", async () => {
    const { body } = await json(
      await post({ branch: "main", commit_message: "Evented", actions: [{ action: "create", file_path: "evented.txt", content: "e" }] }),
    );
    const hook = createClient(hookV1.HookService, s.addresses.hook, { deadlineMs: 5000 });
    const pushes = async () => (await hook.ListRecordedEvents({ eventName: "push", limit: 1000 })).events.map((e) => JSON.parse(e.payloadJson));
    const event = await waitFor(async () => (await pushes()).find((e) => e.after === body.id));
    expect(event).toMatchObject({
      object_kind: "push",
      ref: "refs/heads/main",
      user_username: "root",
      project_id: projectId,
      total_commits_count: 1,
      commits: [{ id: body.id, title: "Evented", added: ["evented.txt"], modified: [], removed: [], url: `${s.url}/root/writes/-/commit/${body.id}` }],
    });
    expect((await pushes()).filter((e) => e.after === body.id)).toHaveLength(1);
    hook.close();
  });
});

describe("cherry-pick and revert", () => {
  it("cherry-picks with @gitbeaker/rest (201, Commit), supports dry_run and answers GitLab's errors", async () => {
    const picked = await json(
      await post({ branch: "pick", start_branch: "main", commit_message: "To pick", actions: [{ action: "create", file_path: "picked.txt", content: "p" }] }),
    );
    const sha = picked.body.id as string;
    expect(await json(await post({ branch: "main", dry_run: true }, { suffix: `/${sha}/cherry_pick` }))).toEqual({ status: 200, body: { dry_run: "success" } });
    const head = git(projectId, "rev-parse", "refs/heads/main");
    const commit = await s.gitlab().Commits.cherryPick(projectId, sha, "main");
    expect(commit).toMatchObject({ parent_ids: [head], message: `To pick\n\n(cherry picked from commit ${sha})`, committer_name: "Administrator" });
    expect(commit).not.toHaveProperty("stats");
    expect(git(projectId, "show", "main:picked.txt")).toBe("p");
    const message =
      "Commit cherry-pick failed: Can't perform this action automatically. It may have already been done, or a more recent commit may have updated some of this content. Please perform this action locally.";
    expect(await json(await post({ branch: "main" }, { suffix: `/${sha}/cherry_pick` }))).toEqual({ status: 400, body: { message, error_code: "empty" } });
    expect(await json(await post({ branch: "main", dry_run: true }, { suffix: `/${sha}/cherry_pick` }))).toEqual({
      status: 400,
      body: { message, error_code: "empty", dry_run: "error" },
    });
    expect(await json(await post({}, { suffix: `/${sha}/cherry_pick` }))).toEqual({ status: 400, body: { error: "branch is missing" } });
    expect(await json(await post({ branch: "main" }, { suffix: `/${"0".repeat(40)}/cherry_pick` }))).toEqual({
      status: 404,
      body: { message: "404 Commit Not Found" },
    });
    expect(await json(await post({ branch: "nope" }, { suffix: `/${sha}/cherry_pick` }))).toEqual({ status: 404, body: { message: "404 Branch Not Found" } });
    const custom = await json(await post({ branch: "feat", message: "Custom" }, { suffix: `/${sha}/cherry_pick` }));
    expect(custom).toMatchObject({ status: 201, body: { message: "Custom" } });
  });

  it("reverts with @gitbeaker/rest and refuses a revert that would change nothing", async () => {
    const target = git(projectId, "log", "-1", "--format=%H", "main", "--", "picked.txt");
    const commit = await s.gitlab().Commits.revert(projectId, target, "main");
    expect(commit).toMatchObject({ title: `Revert "To pick"`, message: `Revert "To pick"\n\nThis reverts commit ${target}`, author_name: "Administrator" });
    expect(git(projectId, "ls-tree", "--name-only", "main", "picked.txt")).toBe("");
    const again = await json(await post({ branch: "main" }, { suffix: `/${target}/revert` }));
    expect(again).toMatchObject({ status: 400, body: { error_code: "empty" } });
    expect(await json(await post({ branch: "main", dry_run: "true" }, { suffix: `/${git(projectId, "rev-parse", "main")}/revert` }))).toEqual({
      status: 200,
      body: { dry_run: "success" },
    });
  });
});

describe("PUT /projects/:id/repository/submodules/:submodule", () => {
  it("updates a submodule reference with @gitbeaker/rest and answers GitLab's errors", async () => {
    const head = git(projectId, "rev-parse", "refs/heads/main");
    const old = "c".repeat(40);
    // A gitlink can only come from a push: write it with plumbing.
    const h = createHash("sha256").update(String(projectId)).digest("hex");
    const gitDir = path.join(s.options.dataDir, "repositories", `@hashed/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git`);
    const index = path.join(s.options.dataDir, "sub-index");
    const env = {
      ...process.env,
      GIT_INDEX_FILE: index,
      GIT_AUTHOR_NAME: "T",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "T",
      GIT_COMMITTER_EMAIL: "t@example.com",
    };
    execFileSync("git", ["--git-dir", gitDir, "read-tree", head], { env });
    execFileSync("git", ["--git-dir", gitDir, "update-index", "--add", "--cacheinfo", `160000,${old},lib/dep`], { env });
    const withSub = execFileSync(
      "git",
      [
        "--git-dir",
        gitDir,
        "commit-tree",
        execFileSync("git", ["--git-dir", gitDir, "write-tree"], { env, encoding: "utf8" }).trim(),
        "-p",
        head,
        "-m",
        "Add submodule",
      ],
      { env, encoding: "utf8" },
    ).trim();
    git(projectId, "update-ref", "refs/heads/main", withSub, head);

    const next = "d".repeat(40);
    const commit = await s.gitlab().RepositorySubmodules.edit(projectId, "lib/dep", "main", next);
    expect(commit).toMatchObject({ title: `Update submodule lib/dep with oid ${next}`, parent_ids: [withSub], author_name: "Administrator", status: null });
    expect(commit).not.toHaveProperty("stats");
    expect(git(projectId, "ls-tree", "main", "lib/dep")).toBe(`160000 commit ${next}\tlib/dep`);

    const put = (sub: string, body: unknown) => s.api(`/projects/${projectId}/repository/submodules/${sub}`, { method: "PUT", json: body });
    expect(await json(await put("lib%2Fdep", { branch: "main", commit_sha: next }))).toEqual({
      status: 400,
      body: { message: `The submodule lib/dep is already at ${next}` },
    });
    expect(await json(await put("README.md", { branch: "main", commit_sha: old }))).toEqual({ status: 400, body: { message: "Invalid submodule path" } });
    expect(await json(await put("lib%2Fdep", { commit_sha: old }))).toEqual({ status: 400, body: { error: "branch is missing" } });
    const custom = await json(await put("lib%2Fdep", { branch: "main", commit_sha: old, commit_message: "Pin dep" }));
    expect(custom).toMatchObject({ status: 200, body: { message: "Pin dep", project_id: projectId, last_pipeline: null } });
  });
});
