import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let project: { id: number; path_with_namespace: string; web_url: string };
let gitDir: string;
let scratch: string;
const sha: Record<string, string> = {};

function repositoryDir(projectId: number): string {
  const h = createHash("sha256").update(String(projectId)).digest("hex");
  return path.join(s.options.dataDir, "repositories", `@hashed/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git`);
}

function git(dir: string, args: string[], o: { input?: string; env?: Record<string, string> } = {}): string {
  return execFileSync("git", ["--git-dir", dir, ...args], { encoding: "utf8", input: o.input, env: { ...process.env, ...o.env } }).trim();
}

/** A commit on top of `parent` (or a root commit) changing `files` (null deletes), written with plumbing. */
function commit(dir: string, parent: string | null, files: Record<string, string | null>, message: string, author: string, day: number): string {
  const index = path.join(scratch, `index-${Math.random().toString(36).slice(2)}`);
  const env = { GIT_INDEX_FILE: index };
  if (parent) git(dir, ["read-tree", parent], { env });
  // --index-info: mode 0 removes a path (no work tree needed in a bare repository).
  const info = Object.entries(files).map(([file, content]) =>
    content === null ? `0 ${"0".repeat(40)}\t${file}\n` : `100644 ${git(dir, ["hash-object", "-w", "--stdin"], { input: content })}\t${file}\n`,
  );
  git(dir, ["update-index", "--add", "--index-info"], { input: info.join(""), env });
  const tree = git(dir, ["write-tree"], { env });
  const date = `2026-02-${String(day).padStart(2, "0")}T12:00:00+00:00`;
  const [name, email] = author.split(":") as [string, string];
  const ident = {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email,
    GIT_COMMITTER_DATE: date,
  };
  return git(dir, ["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", message], { env: ident });
}

beforeAll(async () => {
  s = await startTestStack();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-contents-"));
  project = (await s.gitlab().Projects.create({ name: "contents", initializeWithReadme: true, visibility: "public" })) as typeof project;
  gitDir = repositoryDir(project.id);
  sha.readme = git(gitDir, ["rev-parse", "refs/heads/main"]);
  sha.c1 = commit(
    gitDir,
    sha.readme,
    { "a.txt": "one\ntwo\n", "files/html/index.html": "<html>\n", "files/z.txt": "z\n" },
    "Add files",
    "Alice:alice@example.com",
    1,
  );
  sha.c2 = commit(gitDir, sha.c1, { "a.txt": "one\n2\n" }, "Change a on main", "Bob:bob@example.com", 2);
  sha.f1 = commit(gitDir, sha.c1, { "feature.txt": "feature\n", "files/z.txt": null }, "Feature work", "Carol:carol@example.com", 3);
  sha.orphan = commit(gitDir, null, { "o.txt": "o\n" }, "Orphan", "Dan:dan@example.com", 4);
  git(gitDir, ["update-ref", "refs/heads/main", sha.c2]);
  git(gitDir, ["update-ref", "refs/heads/feature", sha.f1]);
  git(gitDir, ["update-ref", "refs/heads/orphan", sha.orphan]);
});
afterAll(async () => {
  await s?.destroy();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

const repoPath = (p: string) => `/projects/${project.id}/repository${p}`;
const json = async <T = unknown>(res: Response) => (await res.json()) as T;

describe("repository tree", () => {
  it("lists directories first with GitLab's fields, via @gitbeaker/rest and offset headers", async () => {
    const tree = await s.gitlab().Repositories.allRepositoryTrees(project.id);
    expect(tree.map((e) => e.path)).toEqual(["files", "README.md", "a.txt"]);
    expect(tree[0]).toEqual({ id: git(gitDir, ["rev-parse", "main:files"]), name: "files", type: "tree", path: "files", mode: "040000" });
    expect(tree[2]).toMatchObject({ type: "blob", mode: "100644", id: git(gitDir, ["rev-parse", "main:a.txt"]) });
    const recursive = await s.gitlab().Repositories.allRepositoryTrees(project.id, { recursive: true, ref: "feature", path: "files" });
    expect(recursive.map((e) => e.path)).toEqual(["files/html", "files/html/index.html"]);
    const res = await s.api(repoPath("/tree?recursive=true&per_page=2&page=2"));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total")).toBe("6");
    expect(res.headers.get("x-total-pages")).toBe("3");
    expect(res.headers.get("x-next-page")).toBe("3");
    expect((await json<{ path: string }[]>(res)).map((e) => e.path)).toEqual(["README.md", "a.txt"]);
  });

  it("pages by keyset with page_token in the next link, and lists everything with pagination=none", async () => {
    const first = await s.api(repoPath("/tree?recursive=true&pagination=keyset&per_page=4"));
    expect((await json<{ path: string }[]>(first)).map((e) => e.path)).toEqual(["files", "files/html", "README.md", "a.txt"]);
    expect(first.headers.get("x-total")).toBeNull();
    const link = first.headers.get("link")!;
    expect(link).toMatch(/^<.*page_token=[^&>]+.*>; rel="next"$/);
    const next = await s.api(link.slice(link.indexOf("/api/v4") + 7, link.indexOf(">")));
    expect((await json<{ path: string }[]>(next)).map((e) => e.path)).toEqual(["files/html/index.html", "files/z.txt"]);
    expect(next.headers.get("link")).toBeNull();
    const keysetAll = await s.gitlab().Repositories.allRepositoryTrees(project.id, { recursive: true, pagination: "keyset", perPage: 2 });
    expect(keysetAll).toHaveLength(6);
    const none = await s.api(repoPath("/tree?recursive=1&pagination=none"));
    expect(await json(none)).toHaveLength(6);
    expect(none.headers.get("x-total")).toBeNull();
  });

  it("answers 404 for an unknown ref, an unknown path and an empty repository; 400 for pagination=none without recursive", async () => {
    const ref = await s.api(repoPath("/tree?ref=nope"));
    expect(ref.status).toBe(404);
    expect(await json(ref)).toEqual({ message: "404 Tree Not Found" });
    const bogus = await s.api(repoPath("/tree?path=bogus"));
    expect(bogus.status).toBe(404);
    expect(await json(bogus)).toEqual({ message: "404 invalid revision or path Not Found" });
    const empty = await s.gitlab().Projects.create({ name: "empty-tree" });
    const none = await s.api(`/projects/${empty.id}/repository/tree`);
    expect(none.status).toBe(404);
    expect(await json(none)).toEqual({ message: "404 Tree Not Found" });
    const bad = await s.api(repoPath("/tree?pagination=none"));
    expect(bad.status).toBe(400);
    expect(await json(bad)).toEqual({ error: 'pagination cannot be "none" unless "recursive" is true' });
    const token = await s.api(repoPath("/tree?pagination=keyset&page_token=nope"));
    expect(token.status).toBe(400);
  });
});

describe("blobs", () => {
  it("shows a blob as Base64 and raw bytes", async () => {
    const id = git(gitDir, ["rev-parse", "main:a.txt"]);
    expect(await s.gitlab().Repositories.showBlob(project.id, id)).toEqual({
      size: 6,
      encoding: "base64",
      content: Buffer.from("one\n2\n").toString("base64"),
      sha: id,
    });
    // gitbeaker hands text/plain bodies back as strings.
    expect((await s.gitlab().Repositories.showBlobRaw(project.id, id)) as unknown).toBe("one\n2\n");
    const res = await s.api(repoPath(`/blobs/${id}/raw`));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe("inline");
    expect(res.headers.get("cache-control")).toBe("max-age=0, private, must-revalidate, no-store, no-cache");
    expect(res.headers.get("expires")).toBe("Fri, 01 Jan 1990 00:00:00 GMT");
    const binary = git(gitDir, ["hash-object", "-w", "--stdin"], { input: "\x00\x01binary" });
    const bin = await s.api(repoPath(`/blobs/${binary}/raw`));
    expect(bin.headers.get("content-type")).toBe("application/octet-stream");
    expect(Buffer.from(await bin.arrayBuffer())).toEqual(Buffer.from("\x00\x01binary"));
  });

  it("answers 404 Blob Not Found for unknown shas and non-blobs", async () => {
    for (const p of ["/blobs/abcd9876", "/blobs/abcd9876/raw", `/blobs/${sha.c1}`, "/blobs/main"]) {
      const res = await s.api(repoPath(p));
      expect(res.status).toBe(404);
      expect(await json(res)).toEqual({ message: "404 Blob Not Found" });
    }
  });
});

describe("archive", () => {
  const download = async (p: string) => {
    const res = await s.api(repoPath(p));
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const list = (bytes: Buffer, name: string, cmd: string[]) => {
    const file = path.join(scratch, name);
    fs.writeFileSync(file, bytes);
    return execFileSync(cmd[0]!, [...cmd.slice(1), file], { encoding: "utf8" })
      .split("\n")
      .filter((l) => l && !l.endsWith("/"))
      .sort();
  };

  it("downloads tar.gz by default, named and laid out like GitLab, with the same bytes every time", async () => {
    const { res, bytes } = await download("/archive");
    expect(res.status).toBe(200);
    const prefix = `contents-main-${sha.c2}`;
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${prefix}.tar.gz"`);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(list(bytes, "a.tar.gz", ["tar", "-tzf"])).toEqual(["README.md", "a.txt", "files/html/index.html", "files/z.txt"].map((f) => `${prefix}/${f}`));
    expect((await download("/archive.tar.gz")).bytes.equals(bytes)).toBe(true);
    const viaGitbeaker = await s.gitlab().Repositories.showArchive(project.id, { fileType: "tar.gz" });
    expect(Buffer.from(await viaGitbeaker.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("makes zip and tar.bz2 archives of a ref, a subdirectory, without excluded paths", async () => {
    const zip = await download(`/archive.zip?sha=feature`);
    expect(zip.res.headers.get("content-type")).toBe("application/zip");
    expect(zip.res.headers.get("content-disposition")).toBe(`attachment; filename="contents-feature-${sha.f1}.zip"`);
    expect(list(zip.bytes, "a.zip", ["zipinfo", "-1"])).toContain(`contents-feature-${sha.f1}/feature.txt`);
    expect((await download(`/archive.zip?sha=feature`)).bytes.equals(zip.bytes)).toBe(true);
    const bz2 = await download(`/archive.tbz2?sha=${sha.c1}&path=files&exclude_paths=files/z.txt`);
    const prefix = `contents-${sha.c1}-${sha.c1}-files`;
    expect(bz2.res.headers.get("content-disposition")).toBe(`attachment; filename="${prefix}.tar.bz2"`);
    expect(list(bz2.bytes, "a.tar.bz2", ["tar", "-tjf"])).toEqual([`${prefix}/files/html/index.html`]);
  });

  it("names archives of non-ASCII and quoted refs and paths in RFC 6266 form", async () => {
    const named = commit(gitDir, sha.c1!, { "目录/f.txt": "f\n" }, "Unicode directory", "Eve:eve@example.com", 5);
    git(gitDir, ["update-ref", "refs/heads/日本語", named]);
    git(gitDir, ["update-ref", 'refs/heads/say"hi"', named]);
    const cases = [
      [`/archive.zip?sha=${encodeURIComponent("日本語")}`, `contents-日本語-${named}.zip`, `contents-%3F%3F%3F-${named}.zip`],
      [`/archive.zip?sha=${named}&path=${encodeURIComponent("目录")}`, `contents-${named}-${named}-目录.zip`, `contents-${named}-${named}-%3F%3F.zip`],
      [`/archive.zip?sha=${encodeURIComponent('say"hi"')}`, `contents-say"hi"-${named}.zip`, `contents-say%22hi%22-${named}.zip`],
    ] as const;
    for (const [query, name, ascii] of cases) {
      const { res, bytes } = await download(query);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/'/g, "%27")}`);
      expect(bytes.subarray(0, 2).toString()).toBe("PK");
    }
  });

  it("answers 404 File Not Found for an unknown sha or path, and no route for an unknown format", async () => {
    for (const p of ["/archive?sha=xxx", "/archive.zip?path=nope"]) {
      const res = await s.api(repoPath(p));
      expect(res.status).toBe(404);
      expect(await json(res)).toEqual({ message: "404 File Not Found" });
    }
    const rar = await s.api(repoPath("/archive.rar"));
    expect(rar.status).toBe(404);
    expect(await json(rar)).toEqual({ error: "404 Not Found" });
  });
});

describe("compare", () => {
  it("compares from the merge base with @gitbeaker/rest, commits oldest first", async () => {
    const r = (await s.gitlab().Repositories.compare(project.id, "main", "feature")) as { commits: { id: string }[]; commit: unknown; diffs: unknown[] };
    expect(r.commits.map((c: { id: string }) => c.id)).toEqual([sha.f1]);
    expect(r.commit).toMatchObject({ id: sha.f1, title: "Feature work", author_name: "Carol", short_id: sha.f1!.slice(0, 8) });
    expect(r.diffs).toEqual([
      {
        diff: "@@ -0,0 +1 @@\n+feature\n",
        collapsed: false,
        too_large: false,
        new_path: "feature.txt",
        old_path: "feature.txt",
        a_mode: "0",
        b_mode: "100644",
        new_file: true,
        renamed_file: false,
        deleted_file: false,
        generated_file: null,
      },
      {
        diff: "@@ -1 +0,0 @@\n-z\n",
        collapsed: false,
        too_large: false,
        new_path: "files/z.txt",
        old_path: "files/z.txt",
        a_mode: "100644",
        b_mode: "0",
        new_file: false,
        renamed_file: false,
        deleted_file: true,
        generated_file: null,
      },
    ]);
    expect(r).toMatchObject({ compare_timeout: false, compare_same_ref: false, web_url: `${project.web_url}/-/compare/${sha.c1}...${sha.f1}` });
  });

  it("compares straight, with unified diff headers on request", async () => {
    const r = await json<{ diffs: { new_path: string; diff: string }[]; web_url: string }>(
      await s.api(repoPath("/compare?from=main&to=feature&straight=true&unidiff=true")),
    );
    expect(r.diffs.map((d) => d.new_path)).toEqual(["a.txt", "feature.txt", "files/z.txt"]);
    expect(r.diffs[0]!.diff).toBe("--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-2\n+two\n");
    expect(r.diffs[1]!.diff).toBe("--- /dev/null\n+++ b/feature.txt\n@@ -0,0 +1 @@\n+feature\n");
    expect(r.web_url).toBe(`${project.web_url}/-/compare/${sha.c2}...${sha.f1}`);
  });

  it("flags the same ref and answers empty for an ancestor", async () => {
    const same = await json(await s.api(repoPath(`/compare?from=main&to=${sha.c2}`)));
    expect(same).toMatchObject({ commit: null, commits: [], diffs: [], compare_same_ref: true, compare_timeout: false });
    const back = await json(await s.api(repoPath(`/compare?from=${sha.c2}&to=${sha.c1}`)));
    expect(back).toMatchObject({ commits: [], diffs: [], compare_same_ref: false });
  });

  it("compares with another project's ref (from_project_id)", async () => {
    const other = await s.gitlab().Projects.create({ name: "other-contents", initializeWithReadme: true });
    const otherDir = repositoryDir(other.id);
    git(otherDir, ["fetch", "-q", gitDir, "refs/heads/main:refs/heads/upstream"]);
    const only = commit(otherDir, sha.c2!, { "a.txt": "from the other project\n" }, "Other", "Eve:eve@example.com", 5);
    git(otherDir, ["update-ref", "refs/heads/theirs", only]);
    const r = (await s.gitlab().Repositories.compare(project.id, "theirs", "main", { fromProjectId: other.id, straight: true })) as {
      commits: unknown[];
      diffs: unknown[];
    };
    expect(r.commits).toEqual([]);
    expect(r.diffs).toMatchObject([{ new_path: "a.txt", diff: "@@ -1 +1,2 @@\n-from the other project\n+one\n+2\n" }]);
    const unknown = await s.api(repoPath("/compare?from=main&to=feature&from_project_id=999999"));
    expect(unknown.status).toBe(400);
    expect(await json(unknown)).toEqual({ message: `Target project id:999999 is not a fork of project id:${project.id}` });
  });

  it("requires from and to, and answers 404 Ref Not Found for unknown refs", async () => {
    const missing = await s.api(repoPath("/compare?to=main"));
    expect(missing.status).toBe(400);
    expect(await json(missing)).toEqual({ error: "from is missing" });
    for (const q of ["from=unknown_ref&to=main", "from=main&to=unknown_ref"]) {
      const res = await s.api(repoPath(`/compare?${q}`));
      expect(res.status).toBe(404);
      expect(await json(res)).toEqual({ message: "404 Ref Not Found" });
    }
  });
});

describe("contributors", () => {
  it("lists authors of non-merge commits with @gitbeaker/rest, fewest commits first", async () => {
    const list = await s.gitlab().Repositories.allContributors(project.id);
    expect(list.map((c) => c.email)).toEqual(["bob@example.com", "alice@example.com", expect.stringContaining("@")]);
    expect(list[0]).toEqual({ name: "Bob", email: "bob@example.com", commits: 1, additions: 0, deletions: 0 });
    const byName = await json<{ name: string }[]>(await s.api(repoPath("/contributors?ref=feature&order_by=name&sort=desc")));
    expect(byName.map((c) => c.name)).toEqual(["Carol", "Alice", "Administrator"]);
  });

  it("pages with links carrying the default order, and answers 404 for an unknown ref", async () => {
    const res = await s.api(repoPath("/contributors?per_page=1"));
    expect(res.headers.get("x-total")).toBe("3");
    const firstLink = res.headers.get("link")!.split(";")[0]!;
    expect(firstLink).toContain("order_by=commits");
    expect(firstLink).toContain("sort=asc");
    const unknown = await s.api(repoPath("/contributors?ref=nope"));
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toEqual({ message: "404 Not Found" });
    const badOrder = await s.api(repoPath("/contributors?order_by=date"));
    expect(badOrder.status).toBe(400);
  });
});

describe("merge base", () => {
  it("finds the common ancestor with @gitbeaker/rest", async () => {
    const base = await s.gitlab().Repositories.mergeBase(project.id, ["main", "feature"]);
    expect(base).toMatchObject({
      id: sha.c1,
      title: "Add files",
      author_name: "Alice",
      parent_ids: [sha.readme],
      web_url: `${project.web_url}/-/commit/${sha.c1}`,
    });
    const commaSeparated = await json<{ id: string }>(await s.api(repoPath(`/merge_base?refs=main,${sha.f1}`)));
    expect(commaSeparated.id).toBe(sha.c1);
  });

  it("refuses too few refs and unknown refs, and answers 404 without a common ancestor", async () => {
    const cases: [string, number, unknown][] = [
      ["refs[]=main", 400, { message: "Provide at least 2 refs" }],
      ["refs[]=main&refs[]=missing", 400, { message: "Could not find ref: missing" }],
      ["refs[]=main&refs[]=orphan", 404, { message: "404 Merge Base Not Found" }],
      ["", 400, { error: "refs is missing" }],
    ];
    for (const [q, status, body] of cases) {
      const res = await s.api(repoPath(`/merge_base?${q}`));
      expect(res.status).toBe(status);
      expect(await json(res)).toEqual(body);
    }
  });
});

describe("access", () => {
  it("serves a public project anonymously and hides a private one", async () => {
    const anon = await s.api(repoPath("/tree"), { token: null });
    expect(anon.status).toBe(200);
    expect((await s.api(repoPath("/archive.zip"), { token: null })).status).toBe(200);
    const owner = await createUserWithToken(s);
    const secret = (await json(await s.api("/projects", { method: "POST", token: owner.token, json: { name: "secret", initialize_with_readme: true } }))) as {
      id: number;
    };
    for (const p of ["/tree", "/archive", "/contributors", "/compare?from=main&to=main", "/merge_base?refs[]=main&refs[]=main"]) {
      const res = await s.api(`/projects/${secret.id}/repository${p}`, { token: null });
      expect(res.status).toBe(404);
      expect(await json(res)).toEqual({ message: "404 Project Not Found" });
    }
    // Another project the caller cannot see is no comparison source.
    const crossProject = await s.api(repoPath(`/compare?from=main&to=main&from_project_id=${secret.id}`), { token: null });
    expect(crossProject.status).toBe(400);
    expect(await json(crossProject)).toEqual({ message: `Target project id:${secret.id} is not a fork of project id:${project.id}` });
  });
});
