import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let projectId: number;
let projectUrl: string;
let outsider: Awaited<ReturnType<typeof createUserWithToken>>;
const c: Record<"root" | "docs" | "side" | "merge" | "tip" | "signed", string> = { root: "", docs: "", side: "", merge: "", tip: "", signed: "" };

const IDENTITY = { GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@example.com" };

/** Runs git in the project's bare repository (hashed storage under the stack's data directory). */
function git(args: string[], o: { input?: string; env?: Record<string, string> } = {}): string {
  const h = createHash("sha256").update(String(projectId)).digest("hex");
  const gitDir = path.join(s.options.dataDir, "repositories", `@hashed/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git`);
  return execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", input: o.input, env: { ...process.env, ...IDENTITY, ...o.env } }).trim();
}

/**
 * A commit keeping the initial README.md and adding `files`, on top of `parents`, authored and
 * committed at `time` (UTC).
 */
function commit(o: { message: string; parents: string[]; files: Record<string, string>; time: string; author?: [string, string] }): string {
  const entries = [`100644 blob ${git(["rev-parse", `${c.root}:README.md`])}\tREADME.md\n`];
  for (const [name, content] of Object.entries(o.files)) entries.push(`100644 blob ${git(["hash-object", "-w", "--stdin"], { input: content })}\t${name}\n`);
  const tree = git(["mktree"], { input: entries.join("") });
  const [name, email] = o.author ?? ["Ada Lovelace", "ada@example.com"];
  const date = `${o.time} +0000`;
  const env = {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email,
    GIT_COMMITTER_DATE: date,
  };
  return git(["commit-tree", "--no-gpg-sign", tree, ...o.parents.flatMap((p) => ["-p", p])], { input: o.message, env });
}

/** A minimal armored OpenPGP v4 signature whose Issuer subpacket names 8254AAB3FBD54AC9. */
function pgpSignature(): string {
  const issuer = Buffer.concat([Buffer.from([9, 16]), Buffer.from("8254AAB3FBD54AC9", "hex")]);
  const body = Buffer.concat([Buffer.from([4, 0, 1, 8, 0, 0, 0, issuer.length]), issuer, Buffer.from([0xab, 0xcd, 0, 8, 0xff])]);
  const packet = Buffer.concat([Buffer.from([0xc2, body.length]), body]);
  return `-----BEGIN PGP SIGNATURE-----\n\n${packet.toString("base64")}\n=AbCd\n-----END PGP SIGNATURE-----`;
}

beforeAll(async () => {
  s = await startTestStack();
  outsider = await createUserWithToken(s);
  const project = await s.gitlab().Projects.create({ name: "history", initializeWithReadme: true, visibility: "private" });
  projectId = project.id;
  projectUrl = `${s.url}/root/history`;
  c.root = git(["rev-parse", "refs/heads/main"]);
  c.docs = commit({
    message: "Add docs\n",
    parents: [c.root],
    files: { "docs.md": "one\ntwo\n" },
    time: "2030-01-01T10:00:00",
    author: ["Bob Builder", "bob@builders.example"],
  });
  c.side = commit({ message: "Side work\n", parents: [c.root], files: { "side.txt": "s\n" }, time: "2030-01-01T10:00:00" });
  c.merge = commit({ message: "Merge side\n", parents: [c.docs, c.side], files: { "docs.md": "one\ntwo\n", "side.txt": "s\n" }, time: "2030-01-02T10:00:00" });
  c.tip = commit({
    message: "Polish docs\n\nReviewed-by: Carol <carol@example.com>\n",
    parents: [c.merge],
    files: { "docs.md": "one\n2\nthree\n", "side.txt": "s\n" },
    time: "2030-01-03T10:00:00",
  });
  git(["update-ref", "refs/heads/main", c.tip]);
  git(["update-ref", "refs/heads/feature/x", c.side]);
  git(["tag", "-a", "-m", "first", "v1", c.docs]);
  const tree = git(["rev-parse", `${c.tip}^{tree}`]);
  const raw = `tree ${tree}\nparent ${c.tip}\nauthor Ada <ada@example.com> 1900000000 +0000\ncommitter Ada <ada@example.com> 1900000000 +0000\ngpgsig ${pgpSignature().split("\n").join("\n ")}\n\nSigned\n`;
  c.signed = git(["hash-object", "-t", "commit", "-w", "--stdin"], { input: raw });
  git(["update-ref", "refs/heads/signed", c.signed]);
});
afterAll(() => s?.destroy());

const url = (p: string) => `/projects/${projectId}/repository/commits${p}`;
const json = async (p: string, token?: string | null) => {
  const res = await s.api(url(p), { token });
  return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
};
const ids = async (q: string) => ((await json(`?${q}`)).body as { id: string }[]).map((x) => x.id);

describe("GET /projects/:id/repository/commits", () => {
  it("lists the default branch newest first with @gitbeaker/rest, GitLab's fields and no trailers by default", async () => {
    const commits = await s.gitlab().Commits.all(projectId);
    expect(commits.map((x) => x.id)).toEqual([c.tip, c.merge, c.docs, c.side, c.root]);
    expect(commits[0]).toEqual({
      id: c.tip,
      short_id: c.tip.slice(0, 8),
      created_at: "2030-01-03T10:00:00+00:00",
      parent_ids: [c.merge],
      title: "Polish docs",
      message: "Polish docs\n\nReviewed-by: Carol <carol@example.com>\n",
      author_name: "Ada Lovelace",
      author_email: "ada@example.com",
      authored_date: "2030-01-03T10:00:00+00:00",
      committer_name: "Ada Lovelace",
      committer_email: "ada@example.com",
      committed_date: "2030-01-03T10:00:00+00:00",
      trailers: {},
      extended_trailers: {},
      web_url: `${projectUrl}/-/commit/${c.tip}`,
    });
    expect(commits[4]).toMatchObject({ title: "Initial commit", author_name: "Administrator", parent_ids: [] });
  });

  it("pages without X-Total / X-Total-Pages and without a last link", async () => {
    const first = await json("?per_page=2");
    expect((first.body as { id: string }[]).map((x) => x.id)).toEqual([c.tip, c.merge]);
    expect(first.headers.get("x-total")).toBeNull();
    expect(first.headers.get("x-total-pages")).toBeNull();
    expect(first.headers.get("x-page")).toBe("1");
    expect(first.headers.get("x-per-page")).toBe("2");
    expect(first.headers.get("x-next-page")).toBe("2");
    expect(first.headers.get("x-prev-page")).toBe("");
    const link = first.headers.get("link")!;
    expect(link).toContain(`/api/v4/projects/${projectId}/repository/commits?per_page=2&page=2>; rel="next"`);
    expect(link).toContain('rel="first"');
    expect(link).not.toContain('rel="last"');
    const last = await json("?per_page=2&page=3");
    expect((last.body as { id: string }[]).map((x) => x.id)).toEqual([c.root]);
    expect(last.headers.get("x-next-page")).toBe("");
    expect(last.headers.get("x-prev-page")).toBe("2");
    const gitbeakerPage = await s.gitlab().Commits.all(projectId, { perPage: 2, maxPages: 1 });
    expect(gitbeakerPage.map((x) => x.id)).toEqual([c.tip, c.merge]);
  });

  it("takes ref_name as branch, tag, sha or range, and filters like git log", async () => {
    expect(await ids("ref_name=feature/x")).toEqual([c.side, c.root]);
    expect(await ids("ref_name=v1")).toEqual([c.docs, c.root]);
    expect(await ids(`ref_name=${c.merge}`)).toEqual([c.merge, c.docs, c.side, c.root]);
    expect(await ids("ref_name=feature/x..main")).toEqual([c.tip, c.merge, c.docs]);
    // Every ref's history; equal dates come in the order git reaches them from the refs.
    expect(await ids("all=true&ref_name=feature/x")).toEqual(git(["log", "--all", "--format=%H"]).split("\n"));
    expect(await ids("all=true")).toContain(c.signed);
    expect(await ids("author=Bob")).toEqual([c.docs]);
    expect(await ids("author=builders.example")).toEqual([c.docs]);
    expect(await ids("first_parent=true")).toEqual([c.tip, c.merge, c.docs, c.root]);
    expect(await ids("order=topo")).toEqual(git(["log", "--topo-order", "--format=%H", "main"]).split("\n"));
    expect(await ids("path=docs.md")).toEqual([c.tip, c.docs]);
    expect(await ids("since=2030-01-02T10:00:00Z")).toEqual([c.tip, c.merge]);
    expect(await ids("until=2030-01-01T10:00:00Z&since=2030-01-01")).toEqual([c.docs, c.side]);
    expect(await s.gitlab().Commits.all(projectId, { refName: "v1", path: "docs.md" })).toMatchObject([{ id: c.docs }]);
  });

  it("includes trailers and stats when asked", async () => {
    const [withTrailers] = (await json("?trailers=true&per_page=1")).body as Record<string, unknown>[];
    expect(withTrailers).toMatchObject({
      trailers: { "Reviewed-by": "Carol <carol@example.com>" },
      extended_trailers: { "Reviewed-by": ["Carol <carol@example.com>"] },
    });
    const [withStats] = await s.gitlab().Commits.all(projectId, { withStats: true, perPage: 1, maxPages: 1 });
    // docs.md "one\ntwo\n" → "one\n2\nthree\n"
    expect(withStats!.stats).toEqual({ additions: 2, deletions: 1, total: 3 });
    expect(Object.keys(withStats!).at(-1)).toBe("stats");
    expect(((await json("?per_page=1")).body as Record<string, unknown>[])[0]).not.toHaveProperty("stats");
  });

  it("answers 200 [] for an unknown ref and an empty repository", async () => {
    expect(await json("?ref_name=does-not-exist")).toMatchObject({ status: 200, body: [] });
    const empty = await s.gitlab().Projects.create({ name: "empty" });
    const res = await s.api(`/projects/${empty.id}/repository/commits`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });

  it("refuses invalid parameters with GitLab's messages", async () => {
    expect(await json("?since=invalid-date")).toMatchObject({ status: 400, body: { error: "since is invalid" } });
    expect(await json("?until=2030-13-45")).toMatchObject({ status: 400, body: { error: "until is invalid" } });
    expect(await json("?order=invalid")).toMatchObject({ status: 400, body: { error: "order does not have a valid value" } });
    expect(await json("?ref_name=-main")).toMatchObject({ status: 400, body: { message: "ref_name is invalid" } });
    expect(await json("?ref_name=main%20branch")).toMatchObject({ status: 400, body: { message: "ref_name is invalid" } });
  });

  it("hides a private project from outsiders", async () => {
    for (const p of ["", `/${c.tip}`, `/${c.tip}/diff`, `/${c.tip}/refs`, `/${c.signed}/signature`]) {
      expect(await json(p, outsider.token)).toEqual({ status: 404, headers: expect.anything(), body: { message: "404 Project Not Found" } });
    }
  });
});

describe("GET /projects/:id/repository/commits/:sha", () => {
  it("shows a commit by sha, branch (encoded slashes) or tag, with stats, status, project_id and last_pipeline", async () => {
    const shown = await s.gitlab().Commits.show(projectId, c.tip);
    expect(shown).toEqual({
      id: c.tip,
      short_id: c.tip.slice(0, 8),
      created_at: "2030-01-03T10:00:00+00:00",
      parent_ids: [c.merge],
      title: "Polish docs",
      message: "Polish docs\n\nReviewed-by: Carol <carol@example.com>\n",
      author_name: "Ada Lovelace",
      author_email: "ada@example.com",
      authored_date: "2030-01-03T10:00:00+00:00",
      committer_name: "Ada Lovelace",
      committer_email: "ada@example.com",
      committed_date: "2030-01-03T10:00:00+00:00",
      trailers: { "Reviewed-by": "Carol <carol@example.com>" },
      extended_trailers: { "Reviewed-by": ["Carol <carol@example.com>"] },
      web_url: `${projectUrl}/-/commit/${c.tip}`,
      stats: { additions: 2, deletions: 1, total: 3 },
      status: null,
      project_id: projectId,
      last_pipeline: null,
    });
    expect((await s.gitlab().Commits.show(projectId, "feature/x")).id).toBe(c.side);
    expect((await json(`/${encodeURIComponent("feature/x")}`)).body).toMatchObject({ id: c.side });
    expect((await json("/v1")).body).toMatchObject({ id: c.docs });
    expect((await json(`/${c.tip.slice(0, 8)}`)).body).toMatchObject({ id: c.tip });
  });

  it("leaves stats out with stats=false", async () => {
    const { body } = await json(`/${c.tip}?stats=false`);
    expect(body).not.toHaveProperty("stats");
    expect(body).toMatchObject({ status: null, last_pipeline: null });
  });

  it("answers 404 Commit Not Found", async () => {
    for (const p of ["/nope", `/${"0".repeat(40)}`, "/nope/diff", "/nope/refs", "/nope/signature"]) {
      expect(await json(p)).toMatchObject({ status: 404, body: { message: "404 Commit Not Found" } });
    }
  });
});

describe("GET /projects/:id/repository/commits/:sha/diff", () => {
  it("shows the diff against the first parent with @gitbeaker/rest", async () => {
    const diffs = await s.gitlab().Commits.showDiff(projectId, c.tip);
    expect(diffs).toEqual([
      {
        diff: "@@ -1,2 +1,3 @@\n one\n-two\n+2\n+three\n",
        collapsed: false,
        too_large: false,
        new_path: "docs.md",
        old_path: "docs.md",
        a_mode: "100644",
        b_mode: "100644",
        new_file: false,
        renamed_file: false,
        deleted_file: false,
        generated_file: null,
      },
    ]);
    const merge = await s.gitlab().Commits.showDiff(projectId, c.merge);
    expect(merge.map((d) => [d.new_path, d.new_file])).toEqual([["side.txt", true]]);
  });

  it("diffs a root commit against the empty tree, and presents unified diffs on request", async () => {
    const { body } = await json(`/${c.root}/diff`);
    expect(body).toEqual([
      expect.objectContaining({ new_path: "README.md", new_file: true, a_mode: "0", b_mode: "100644", diff: "@@ -0,0 +1 @@\n+# history\n" }),
    ]);
    const uni = (await json(`/${c.root}/diff?unidiff=true`)).body as { diff: string }[];
    expect(uni[0]!.diff).toBe("--- /dev/null\n+++ b/README.md\n@@ -0,0 +1 @@\n+# history\n");
    const changed = (await json(`/${c.tip}/diff?unidiff=true`)).body as { diff: string }[];
    expect(changed[0]!.diff).toBe("--- a/docs.md\n+++ b/docs.md\n@@ -1,2 +1,3 @@\n one\n-two\n+2\n+three\n");
  });

  it("pages with the usual headers, totals included", async () => {
    const res = await s.api(url(`/${c.merge}/diff?per_page=1`));
    expect(res.headers.get("x-total")).toBe("1");
    expect(res.headers.get("x-total-pages")).toBe("1");
  });
});

describe("GET /projects/:id/repository/commits/:sha/refs", () => {
  it("lists branches and tags containing the commit, filtered by type", async () => {
    expect(await s.gitlab().Commits.allReferences(projectId, c.root)).toEqual([
      { type: "branch", name: "feature/x" },
      { type: "branch", name: "main" },
      { type: "branch", name: "signed" },
      { type: "tag", name: "v1" },
    ]);
    expect(await s.gitlab().Commits.allReferences(projectId, c.docs, { type: "tag" })).toEqual([{ type: "tag", name: "v1" }]);
    expect((await json(`/${c.side}/refs?type=branch`)).body).toEqual([
      { type: "branch", name: "feature/x" },
      { type: "branch", name: "main" },
      { type: "branch", name: "signed" },
    ]);
  });

  it("pages without totals and refuses unknown types", async () => {
    const res = await s.api(url(`/${c.root}/refs?per_page=3`));
    expect(res.headers.get("x-total")).toBeNull();
    expect(res.headers.get("x-next-page")).toBe("2");
    expect(res.headers.get("link")).not.toContain('rel="last"');
    expect(((await res.json()) as unknown[]).length).toBe(3);
    expect(await json(`/${c.root}/refs?type=bogus`)).toMatchObject({ status: 400, body: { error: "type does not have a valid value" } });
  });
});

describe("GET /projects/:id/repository/commits/:sha/signature", () => {
  it("shows an (unverified) PGP signature with @gitbeaker/rest", async () => {
    expect(await s.gitlab().Commits.showGPGSignature(projectId, "signed")).toEqual({
      signature_type: "PGP",
      verification_status: "unverified",
      gpg_key_id: null,
      gpg_key_primary_keyid: "8254AAB3FBD54AC9",
      gpg_key_user_name: null,
      gpg_key_user_email: null,
      gpg_key_subkey_id: null,
      commit_source: "gitaly",
    });
  });

  it("answers 404 Signature Not Found for an unsigned commit", async () => {
    expect(await json(`/${c.tip}/signature`)).toMatchObject({ status: 404, body: { message: "404 Signature Not Found" } });
  });
});
