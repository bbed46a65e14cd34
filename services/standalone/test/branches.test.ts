import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import path from "node:path";
import { createClient } from "@quarry/grpc";
import { hookV1 } from "@quarry/proto";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";
import { refsChanged } from "@quarry/repo-service";

let s: TestStack;
let projectId: number;
let reporter: Awaited<ReturnType<typeof createUserWithToken>>;

beforeAll(async () => {
  s = await startTestStack();
  const project = await s.gitlab().Projects.create({ name: "branchy", initializeWithReadme: true });
  projectId = project.id;
  reporter = await createUserWithToken(s);
  await s.api(`/projects/${projectId}/members`, { method: "POST", json: { user_id: reporter.id, access_level: 20 } });
});
afterAll(() => s?.destroy());

describe("branches", () => {
  it("creates, lists, reads and deletes branches with @gitbeaker/rest", async () => {
    const api = s.gitlab();
    const created = await api.Branches.create(projectId, "feature/login", "main");
    // Same head as the default branch: not "merged" in GitLab's sense.
    expect(created).toMatchObject({ name: "feature/login", merged: false, protected: false, default: false, can_push: true });
    expect(created.commit).toMatchObject({ title: "Initial commit", author_name: "Administrator", short_id: expect.stringMatching(/^[0-9a-f]{8}$/) });
    const commit = created.commit as unknown as { created_at: string; committed_date: string };
    expect(commit.created_at).toBe(commit.committed_date);
    await api.Branches.create(projectId, "alpha", "main");
    const names = (await api.Branches.all(projectId)).map((b) => b.name);
    expect(names).toEqual(["alpha", "feature/login", "main"]);
    const main = await api.Branches.show(projectId, "main");
    expect(main).toMatchObject({ name: "main", default: true, web_url: `${s.url}/root/branchy/-/tree/main` });
    const byEncoded = await s.api(`/projects/${projectId}/repository/branches/${encodeURIComponent("feature/login")}`);
    expect(byEncoded.status).toBe(200);
    await api.Branches.remove(projectId, "alpha");
    expect((await api.Branches.all(projectId)).map((b) => b.name)).toEqual(["feature/login", "main"]);
  });

  it("searches by substring, prefix, suffix and regex, and pages by name", async () => {
    for (const n of ["release-1", "release-2", "hotfix-release"]) {
      expect((await s.api(`/projects/${projectId}/repository/branches`, { method: "POST", json: { branch: n, ref: "main" } })).status).toBe(201);
    }
    const names = async (q: string) =>
      ((await (await s.api(`/projects/${projectId}/repository/branches?${q}`)).json()) as { name: string }[]).map((b) => b.name);
    expect(await names("search=release")).toEqual(["hotfix-release", "release-1", "release-2"]);
    expect(await names("search=%5Erelease")).toEqual(["release-1", "release-2"]);
    expect(await names("search=release%24")).toEqual(["hotfix-release"]);
    expect(await names(`regex=${encodeURIComponent("^release-\\d$")}`)).toEqual(["release-1", "release-2"]);
    expect(await names(`regex=${encodeURIComponent("(?i)^RELEASE-\\d$")}`)).toEqual(["release-1", "release-2"]); // RE2 inline flags
    const refused = await s.api(`/projects/${projectId}/repository/branches?regex=${encodeURIComponent("^(r)\\1")}`); // RE2: no backreferences
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: "Regex is invalid" });
    const both = await s.api(`/projects/${projectId}/repository/branches?search=a&regex=b`);
    expect(both.status).toBe(400);
    const paged = await s.api(`/projects/${projectId}/repository/branches?per_page=2&page=2`);
    expect(paged.headers.get("x-total")).toBe("5");
    expect(((await paged.json()) as { name: string }[]).map((b) => b.name)).toEqual(["main", "release-1"]);
  });

  it("answers HEAD with 204 or 404", async () => {
    expect((await s.api(`/projects/${projectId}/repository/branches/main`, { method: "HEAD" })).status).toBe(204);
    expect((await s.api(`/projects/${projectId}/repository/branches/nope`, { method: "HEAD" })).status).toBe(404);
  });

  it("refuses invalid names, existing branches, unknown refs, the default branch and readers", async () => {
    const post = (json: unknown, token?: string) => s.api(`/projects/${projectId}/repository/branches`, { method: "POST", json, token });
    const invalid = await post({ branch: "bad name..", ref: "main" });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({ message: "Branch name is invalid" });
    const exists = await post({ branch: "main", ref: "main" });
    expect(await exists.json()).toEqual({ message: "Branch already exists" });
    const unknown = await post({ branch: "x", ref: "does-not-exist" });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ message: "Invalid reference name: does-not-exist" });
    const missing = await post({ branch: "x" });
    expect(await missing.json()).toEqual({ error: "ref is missing" });
    const del = await s.api(`/projects/${projectId}/repository/branches/main`, { method: "DELETE" });
    expect(del.status).toBe(405);
    expect(await del.json()).toEqual({ message: "The default branch of a project cannot be deleted." });
    const gone = await s.api(`/projects/${projectId}/repository/branches/nope`, { method: "DELETE" });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ message: "404 Branch Not Found" });
    const asReporter = await post({ branch: "r", ref: "main" }, reporter.token);
    expect(asReporter.status).toBe(403);
    const readable = await s.api(`/projects/${projectId}/repository/branches/main`, { token: reporter.token });
    expect(await readable.json()).toMatchObject({ can_push: false });
  });

  it("deletes merged branches (202) and keeps the default branch", async () => {
    // Move main ahead with a real commit in the bare repository, so the other branches are merged into it.
    const h = createHash("sha256").update(String(projectId)).digest("hex");
    const gitDir = path.join(s.options.dataDir, "repositories", `@hashed/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git`);
    const git = (...args: string[]) =>
      execFileSync("git", ["--git-dir", gitDir, ...args], {
        encoding: "utf8",
        env: { ...process.env, GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@example.com" },
      }).trim();
    const head = git("rev-parse", "refs/heads/main");
    const next = git("commit-tree", `${head}^{tree}`, "-p", head, "-m", "second");
    git("update-ref", "refs/heads/main", next, head);
    refsChanged(gitDir); // written behind repo-service's back: its in-memory refs are told
    expect(((await (await s.api(`/projects/${projectId}/repository/branches/release-1`)).json()) as { merged: boolean }).merged).toBe(true);
    const res = await s.api(`/projects/${projectId}/repository/merged_branches`, { method: "DELETE" });
    expect(res.status).toBe(202);
    await waitFor(async () => {
      const left = ((await (await s.api(`/projects/${projectId}/repository/branches`)).json()) as { name: string }[]).map((b) => b.name);
      return left.length === 1 && left[0] === "main";
    });
  });

  it("in an empty repository first commits an empty README.md to the default branch, like GitLab", async () => {
    const empty = await s.gitlab().Projects.create({ name: "empty-branchy" });
    const res = await s.api(`/projects/${empty.id}/repository/branches`, { method: "POST", json: { branch: "feature", ref: "main" } });
    expect(res.status).toBe(201);
    const feature = (await res.json()) as { name: string; default: boolean; commit: { id: string; title: string; author_name: string; parent_ids: string[] } };
    expect(feature).toMatchObject({ name: "feature", default: false, commit: { title: "Add README.md", author_name: "Administrator", parent_ids: [] } });
    const main = (await (await s.api(`/projects/${empty.id}/repository/branches/main`)).json()) as { default: boolean; commit: { id: string } };
    expect(main).toMatchObject({ default: true, commit: { id: feature.commit.id } });
    const tree = (await (await s.api(`/projects/${empty.id}/repository/tree?ref=main`)).json()) as { path: string }[];
    expect(tree.map((e) => e.path)).toEqual(["README.md"]);
    const readme = await s.api(`/projects/${empty.id}/repository/files/README.md/raw?ref=main`);
    expect(await readme.text()).toBe("");
    expect((await (await s.api(`/projects/${empty.id}`)).json()) as { empty_repo: boolean }).toMatchObject({ empty_repo: false });

    // The default branch's creation is a push like any other: its event carries the README commit.
    const hook = createClient(hookV1.HookService, s.addresses.hook, { deadlineMs: 5000 });
    const pushes = async () => (await hook.ListRecordedEvents({ eventName: "push", limit: 1000 })).events.map((e) => JSON.parse(e.payloadJson));
    const pushed = await waitFor(async () => (await pushes()).find((e) => e.project_id === empty.id && e.ref === "refs/heads/main"));
    expect(pushed).toMatchObject({ before: "0".repeat(40), after: feature.commit.id, user_username: "root", total_commits_count: 1 });
    expect(pushed.commits).toEqual([expect.objectContaining({ id: feature.commit.id, message: "Add README.md", added: ["README.md"] })]);
    hook.close();
  });

  it("publishes push events for branch creation and deletion", async () => {
    const hook = createClient(hookV1.HookService, s.addresses.hook, { deadlineMs: 5000 });
    const pushes = async () => (await hook.ListRecordedEvents({ eventName: "push", limit: 1000 })).events.map((e) => JSON.parse(e.payloadJson));
    const created = await waitFor(async () => (await pushes()).find((e) => e.ref === "refs/heads/feature/login" && /^0+$/.test(e.before)));
    expect(created).toMatchObject({
      object_kind: "push",
      event_name: "push",
      user_username: "root",
      project_id: projectId,
      total_commits_count: 0,
      commits: [],
      project: { path_with_namespace: "root/branchy", default_branch: "main" },
      repository: { name: "branchy" },
    });
    const deleted = await waitFor(async () => (await pushes()).find((e) => e.ref === "refs/heads/alpha" && /^0+$/.test(e.after)));
    expect(deleted.checkout_sha).toBeNull();
    hook.close();
  });
});
