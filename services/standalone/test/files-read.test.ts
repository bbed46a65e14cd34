import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let projectId: number;
let initial: string;
let head: string;
let reporter: Awaited<ReturnType<typeof createUserWithToken>>;

/** Every byte value: raw and Base64 content must carry them unchanged. */
const BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const sha256 = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");
const UNICODE = "docs/ünï €.md";

/** Commits `files` on top of main in the project's bare repository (plumbing, temporary index). */
function commitFiles(gitDir: string, parent: string, files: Record<string, { content: string | Buffer; mode?: string }>, message: string): string {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "quarry-files-"));
  const env = {
    ...process.env,
    GIT_INDEX_FILE: path.join(tmp, "index"),
    GIT_AUTHOR_NAME: "Ada",
    GIT_AUTHOR_EMAIL: "ada@example.com",
    GIT_COMMITTER_NAME: "Ada",
    GIT_COMMITTER_EMAIL: "ada@example.com",
  };
  const git = (args: string[], input?: string | Buffer) => execFileSync("git", ["--git-dir", gitDir, ...args], { env, input, encoding: "utf8" }).trim();
  try {
    git(["read-tree", parent]);
    for (const [name, { content, mode = "100644" }] of Object.entries(files)) {
      git(["update-index", "--add", "--cacheinfo", `${mode},${git(["hash-object", "-w", "--stdin"], content)},${name}`]);
    }
    const commit = git(["commit-tree", git(["write-tree"]), "-p", parent, "-m", message]);
    git(["update-ref", "refs/heads/main", commit, parent]);
    return commit;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  s = await startTestStack();
  const project = await s.gitlab().Projects.create({ name: "filey", initializeWithReadme: true });
  projectId = project.id;
  reporter = await createUserWithToken(s);
  await s.api(`/projects/${projectId}/members`, { method: "POST", json: { user_id: reporter.id, access_level: 20 } });
  const h = createHash("sha256").update(String(projectId)).digest("hex");
  const gitDir = path.join(s.options.dataDir, "repositories", `@hashed/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git`);
  initial = execFileSync("git", ["--git-dir", gitDir, "rev-parse", "refs/heads/main"], { encoding: "utf8" }).trim();
  const first = commitFiles(
    gitDir,
    initial,
    {
      "lib/a.rb": { content: "one\ntwo\nthree\n" },
      "bin/run": { content: "#!/bin/sh\n", mode: "100755" },
      "data.bin": { content: BYTES },
      "dir/raw": { content: "a file called raw\n" },
      [UNICODE]: { content: "unicode\n" },
    },
    "Add files",
  );
  head = commitFiles(gitDir, first, { "lib/a.rb": { content: "one\nTWO\nthree\n" } }, "Change line two");
});
afterAll(() => s?.destroy());

const files = (filePath: string, suffix = "") => `/projects/${projectId}/repository/files/${encodeURIComponent(filePath)}${suffix}`;
const HEADER_KEYS = ["Blob-Id", "Commit-Id", "Content-Sha256", "Encoding", "File-Name", "File-Path", "Last-Commit-Id", "Ref", "Size", "Execute-Filemode"];

describe("repository files", () => {
  it("reads a file with @gitbeaker/rest: Base64 content and GitLab's metadata", async () => {
    const file = await s.gitlab().RepositoryFiles.show(projectId, "lib/a.rb", "main");
    expect(file).toMatchObject({
      file_name: "a.rb",
      file_path: "lib/a.rb",
      size: 14,
      encoding: "base64",
      content: Buffer.from("one\nTWO\nthree\n").toString("base64"),
      content_sha256: sha256("one\nTWO\nthree\n"),
      ref: "main",
      commit_id: head,
      last_commit_id: head,
      execute_filemode: false,
    });
    expect(file.blob_id).toMatch(/^[0-9a-f]{40}$/);
    const readme = await s.gitlab().RepositoryFiles.show(projectId, "README.md", "HEAD");
    expect(readme).toMatchObject({ ref: "HEAD", commit_id: head, last_commit_id: initial });
    expect(await s.gitlab().RepositoryFiles.show(projectId, "bin/run", "main")).toMatchObject({ execute_filemode: true });
  });

  it("returns binary content byte for byte and the metadata headers under both names", async () => {
    const res = await s.api(`${files("data.bin")}?ref=main`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await res.json()) as { content: string; size: number };
    expect(Buffer.compare(Buffer.from(body.content, "base64"), BYTES)).toBe(0);
    expect(res.headers.get("x-gitlab-content-sha256")).toBe(sha256(BYTES));
    expect(res.headers.get("x-service-size")).toBe("256");
    const unencoded = await s.api(`/projects/${projectId}/repository/files/lib/a.rb?ref=main`);
    expect(((await unencoded.json()) as { file_path: string }).file_path).toBe("lib/a.rb");
    const raw = await s.api(`${files("dir/raw")}?ref=main`);
    expect(await raw.json()).toMatchObject({ file_path: "dir/raw", file_name: "raw" });
  });

  it("answers HEAD with 200, no body and every metadata header as X-Gitlab-* and X-Service-*", async () => {
    const res = await s.api(`${files("lib/a.rb")}?ref=main`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
    for (const key of HEADER_KEYS) {
      expect(res.headers.get(`x-gitlab-${key}`), key).not.toBeNull();
      expect(res.headers.get(`x-service-${key}`), key).toBe(res.headers.get(`x-gitlab-${key}`));
    }
    expect(res.headers.get("x-gitlab-last-commit-id")).toBe(head);
    expect(res.headers.get("x-gitlab-execute-filemode")).toBe("false");
    expect(res.headers.get("x-gitlab-encoding")).toBe("base64");
    const unicode = await s.api(`${files(UNICODE)}?ref=main`, { method: "HEAD" });
    expect(Buffer.from(unicode.headers.get("x-gitlab-file-path")!, "latin1").toString("utf8")).toBe(UNICODE);
    expect((await s.api(`${files("nope")}?ref=main`, { method: "HEAD" })).status).toBe(404);
  });

  it("answers GitLab's errors for missing refs, files and commits, and invalid paths", async () => {
    const cases: [string, number, unknown][] = [
      [files("lib/a.rb"), 400, { error: "ref is missing" }],
      [`${files("lib/a.rb")}?ref=`, 400, { error: "ref is empty" }],
      [`${files("nope.rb")}?ref=main`, 404, { message: "404 File Not Found" }],
      [`${files("lib")}?ref=main`, 404, { message: "404 File Not Found" }],
      [`${files("lib/a.rb")}?ref=nope`, 404, { message: "404 Commit Not Found" }],
      [`${files("../etc/passwd")}?ref=main`, 400, { error: "file_path should be a valid file path" }],
      [`${files("lib/../README.md")}?ref=main`, 400, { error: "file_path should be a valid file path" }],
      [`${files("/etc/passwd")}?ref=main`, 400, { error: "file_path should be a valid file path" }],
      [`${files("lib/a.rb", "/blame")}`, 400, { error: "ref is missing" }],
    ];
    for (const [url, status, body] of cases) {
      const res = await s.api(url);
      expect(res.status, url).toBe(status);
      expect(await res.json(), url).toEqual(body);
    }
    expect((await s.api(`${files("README.md")}?ref=main`, { token: reporter.token })).status).toBe(200);
    expect((await s.api(`${files("README.md")}?ref=main`, { token: null })).status).toBe(404);
  });

  it("serves raw files: exact bytes, content type, disposition, no-cache and metadata headers", async () => {
    const bin = await s.api(`${files("data.bin", "/raw")}?ref=main`);
    expect(bin.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await bin.arrayBuffer()), BYTES)).toBe(0);
    expect(bin.headers.get("content-type")).toBe("application/octet-stream");
    expect(bin.headers.get("content-disposition")).toBe(`attachment; filename="data.bin"; filename*=UTF-8''data.bin`);
    expect(bin.headers.get("cache-control")).toBe("max-age=0, private, must-revalidate, no-store, no-cache");
    expect(bin.headers.get("x-gitlab-blob-id")).toMatch(/^[0-9a-f]{40}$/);

    const text = await s.api(files(UNICODE, "/raw"));
    expect(await text.text()).toBe("unicode\n");
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(text.headers.get("content-disposition")).toBe(`inline; filename="uni %3F.md"; filename*=UTF-8''%C3%BCn%C3%AF%20%E2%82%AC.md`);
    expect(text.headers.get("x-gitlab-ref")).toBe("main");
    expect((await s.api(`${files("/lib/a.rb", "/raw")}?ref=${initial}&lfs=true`)).status).toBe(404);
    const old = await s.api(`${files("/lib/a.rb", "/raw")}?ref=${head}&lfs=true`);
    expect(await old.text()).toBe("one\nTWO\nthree\n");
    const calledRaw = await s.api(files("dir/raw", "/raw"));
    expect(await calledRaw.text()).toBe("a file called raw\n");

    const viaGitbeaker = await s.gitlab().RepositoryFiles.showRaw(projectId, "lib/a.rb", "main");
    expect(typeof viaGitbeaker === "string" ? viaGitbeaker : await (viaGitbeaker as Blob).text()).toBe("one\nTWO\nthree\n");

    const probe = await s.api(files("lib/a.rb", "/raw"), { method: "HEAD" });
    expect(probe.status).toBe(200);
    expect(await probe.text()).toBe("");
    expect(probe.headers.get("x-service-file-name")).toBe("a.rb");
    const missing = await s.api(files("nope", "/raw"));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: "404 File Not Found" });
  });

  it("blames files, whole or a range, with @gitbeaker/rest and fetch", async () => {
    const ranges = await s.gitlab().RepositoryFiles.allFileBlames(projectId, "lib/a.rb", "main");
    expect(ranges.map((r) => [r.commit.message.trim(), r.lines])).toEqual([
      ["Add files", ["one"]],
      ["Change line two", ["TWO"]],
      ["Add files", ["three"]],
    ]);
    expect(Object.keys(ranges[0]!.commit).sort()).toEqual(
      ["author_email", "author_name", "authored_date", "committed_date", "committer_email", "committer_name", "id", "message", "parent_ids"].sort(),
    );
    expect(ranges[1]!.commit).toMatchObject({ id: head, author_name: "Ada", author_email: "ada@example.com" });

    const ranged = await s.gitlab().RepositoryFiles.allFileBlames(projectId, "lib/a.rb", "main", { range: { start: 2, end: 2 } });
    expect(ranged.map((r) => r.lines)).toEqual([["TWO"]]);
    const res = await s.api(`${files("lib/a.rb", "/blame")}?ref=main&range[start]=3&range[end]=99`);
    expect(((await res.json()) as { lines: string[] }[]).map((r) => r.lines)).toEqual([["three"]]);
    expect(res.headers.get("x-gitlab-commit-id")).toBe(head);

    const probe = await s.api(`${files("lib/a.rb", "/blame")}?ref=main`, { method: "HEAD" });
    expect(probe.status).toBe(200);
    expect(probe.headers.get("x-service-last-commit-id")).toBe(head);
  });

  it("refuses bad blame ranges like GitLab", async () => {
    const cases: [string, unknown][] = [
      ["range[start]=3&range[end]=2", { message: "range[start] must be less than or equal to range[end]" }],
      ["range[start]=2", { error: "range[end] is missing" }],
      ["range[start]=0&range[end]=2", { error: "range[start] does not have a valid value" }],
      ["range[start]=x&range[end]=y", { error: "range[start] does not have a valid value, range[end] does not have a valid value" }],
      ["range[start]=9&range[end]=10", { message: "range is outside of the file length" }],
    ];
    for (const [q, body] of cases) {
      const res = await s.api(`${files("lib/a.rb", "/blame")}?ref=main&${q}`);
      expect(res.status, q).toBe(400);
      expect(await res.json(), q).toEqual(body);
    }
    const missing = await s.api(`${files("nope", "/blame")}?ref=main`);
    expect(missing.status).toBe(404);
  });
});
