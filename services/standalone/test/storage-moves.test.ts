// Repository storages and storage moves end to end, on a stack with two storages: `default`
// (<data dir>/repositories, weight 100) and `fast` (a directory of its own, weight 0). The move's
// one test seam (repo-service's StorageMoveHooks, wired through the stack's options) holds a copy
// in `started`, damages it, or waits for the stop; everything else is the real thing: the bus
// work queue, the copy on disk, the checksum, git over HTTP. @gitbeaker/rest and python-gitlab:
// python-storage-moves.test.ts.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { StorageMoveHooks } from "@quarry/repo-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitEnv, gitHttp, runCli } from "./git-cli.ts";
import { generateKey } from "./ssh-keygen.ts";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";

const READ_ONLY = "The repository is temporarily read-only. Please try again later.";

/** What the hook does to the next copies. */
let mode: "pass" | "hold" | "tamper" | "wait-for-stop" = "pass";
let release: () => void = () => {};
let held = Promise.resolve();
const hooks: StorageMoveHooks = {
  async afterCopy(dir, stopping) {
    if (mode === "hold") await held;
    if (mode === "tamper") execFileSync("git", ["--git-dir", dir, "update-ref", "refs/heads/tampered", "HEAD"]);
    if (mode === "wait-for-stop" && !stopping.aborted) await new Promise((resolve) => stopping.addEventListener("abort", resolve, { once: true }));
  },
};
function hold(): void {
  mode = "hold";
  held = new Promise((resolve) => {
    release = resolve;
  });
}

const fastRoot = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-fast-storage-"));
const storages = [{ name: "fast", root: fastRoot, weight: 0 }];

const snippetPath = (id: number) => {
  const h = createHash("sha256").update(String(id)).digest("hex");
  return `@snippets/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git`;
};
const projectPath = (id: number) => {
  const h = createHash("sha256").update(String(id)).digest("hex");
  return `@hashed/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git`;
};

/** Polls a move until it reaches `state` (at most ~30 s of polling), answering it. */
async function waitForState(s: TestStack, url: string, state: string): Promise<Record<string, unknown>> {
  let last: Record<string, unknown> = {};
  for (let i = 0; i < 600; i++) {
    last = await jsonBody(await s.api(url), 200);
    if (last.state === state) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`move at ${url} never reached ${state}: ${JSON.stringify(last)}`);
}

describe("storage moves", () => {
  let s: TestStack;
  let home: string;
  const { post, put } = jsonRequests(() => s);
  let defaultRoot: string;

  beforeAll(async () => {
    s = await startTestStack(undefined, { storages, storageMoveHooks: hooks, ssh: { port: 0, host: "127.0.0.1" } });
    defaultRoot = path.join(s.options.dataDir, "repositories");
    home = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-storage-moves-"));
  }, 60_000);
  afterAll(async () => {
    release();
    await s?.destroy();
    if (home) fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(fastRoot, { recursive: true, force: true });
  });

  const newSnippet = async (title: string) =>
    jsonBody(await post("/snippets", { title, visibility: "public", files: [{ file_path: "a.txt", content: "one" }] }), 201) as Promise<{
      id: number;
      web_url: string;
    }>;

  it("moves a snippet through its states: read-only while it runs, then writable on the new storage", async () => {
    const snippet = await newSnippet("moving");
    expect((await jsonBody(await s.api(`/snippets/${snippet.id}`), 200)).repository_storage).toBe("default");
    expect(fs.existsSync(path.join(defaultRoot, snippetPath(snippet.id)))).toBe(true);

    hold();
    const move = await jsonBody(await post(`/snippets/${snippet.id}/repository_storage_moves`, { destination_storage_name: "fast" }), 201);
    expect(move).toEqual({
      id: expect.any(Number),
      created_at: expect.any(String),
      state: "scheduled",
      source_storage_name: "default",
      destination_storage_name: "fast",
      snippet: {
        id: snippet.id,
        title: "moving",
        description: null,
        visibility: "public",
        updated_at: expect.any(String),
        created_at: expect.any(String),
        project_id: null,
        web_url: snippet.web_url,
        raw_url: `${snippet.web_url}/raw`,
        ssh_url_to_repo: expect.stringMatching(/snippets\/\d+\.git$/),
        http_url_to_repo: `${s.url}/snippets/${snippet.id}.git`,
      },
    });
    const started = await waitForState(s, `/snippet_repository_storage_moves/${move.id}`, "started");
    expect(started).toEqual({ ...move, state: "started" });

    // While it runs: writes refused, reads served, a second move refused.
    const refused = await jsonBody(await put(`/snippets/${snippet.id}`, { files: [{ action: "update", file_path: "a.txt", content: "two" }] }), 400);
    expect(JSON.stringify(refused)).toContain(READ_ONLY);
    const raw = await s.api(`/snippets/${snippet.id}/raw`);
    expect([raw.status, await raw.text()]).toEqual([200, "one"]);
    expect(await jsonBody(await post(`/snippets/${snippet.id}/repository_storage_moves`, { destination_storage_name: "fast" }), 400)).toEqual({
      message: { snippet: ["is read-only"] },
    });

    release();
    const finished = await waitForState(s, `/snippets/${snippet.id}/repository_storage_moves/${move.id}`, "finished");
    expect(finished).toMatchObject({ id: move.id, source_storage_name: "default", destination_storage_name: "fast" });
    mode = "pass";

    // Writable again; the repository is under the fast storage's root now.
    await jsonBody(await put(`/snippets/${snippet.id}`, { files: [{ action: "update", file_path: "a.txt", content: "two" }] }), 200);
    expect(execFileSync("git", ["--git-dir", path.join(fastRoot, snippetPath(snippet.id)), "show", "main:a.txt"], { encoding: "utf8" })).toBe("two");
    expect(fs.existsSync(path.join(defaultRoot, snippetPath(snippet.id)))).toBe(false);
    expect((await jsonBody(await s.api(`/snippets/${snippet.id}`), 200)).repository_storage).toBe("fast");
    const rawAfter = await s.api(`/snippets/${snippet.id}/raw`);
    expect(await rawAfter.text()).toBe("two");

    // The lists, newest first, with GitLab's pagination headers.
    const list = await s.api(`/snippets/${snippet.id}/repository_storage_moves`);
    expect(list.headers.get("x-total")).toBe("1");
    expect(await jsonBody(list, 200)).toEqual([{ ...finished, snippet: expect.objectContaining({ id: snippet.id }) }]);
    const all = (await jsonBody(await s.api("/snippet_repository_storage_moves?per_page=100"), 200)) as { id: number }[];
    expect(all.map((m) => m.id)).toContain(move.id);
  });

  it("fails a move whose copy does not match the source's checksum; the snippet stays where it was", async () => {
    const snippet = await newSnippet("tampered");
    mode = "tamper";
    const move = await jsonBody(await post(`/snippets/${snippet.id}/repository_storage_moves`, { destination_storage_name: "fast" }), 201);
    await waitForState(s, `/snippet_repository_storage_moves/${move.id}`, "failed");
    mode = "pass";
    expect((await jsonBody(await s.api(`/snippets/${snippet.id}`), 200)).repository_storage).toBe("default");
    expect(fs.existsSync(path.join(fastRoot, snippetPath(snippet.id)))).toBe(false);
    // Writable again, where it was.
    await jsonBody(await put(`/snippets/${snippet.id}`, { files: [{ action: "update", file_path: "a.txt", content: "still here" }] }), 200);
    expect(execFileSync("git", ["--git-dir", path.join(defaultRoot, snippetPath(snippet.id)), "show", "main:a.txt"], { encoding: "utf8" })).toBe("still here");
  });

  it("answers GitLab's errors: administrators only, unknown storages, unknown snippets and moves", async () => {
    const snippet = await newSnippet("errors");
    const user = await createUserWithToken(s);
    expect(await jsonBody(await s.api("/snippet_repository_storage_moves", { token: user.token }), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await s.api("/project_repository_storage_moves", { token: null }), 401)).toEqual({ message: "401 Unauthorized" });
    expect(await jsonBody(await post(`/snippets/${snippet.id}/repository_storage_moves`, {}, user.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await post(`/snippets/${snippet.id}/repository_storage_moves`, { destination_storage_name: "nowhere" }), 400)).toEqual({
      message: { destination_storage_name: ["is not included in the list"] },
    });
    expect(await jsonBody(await s.api("/snippets/999999/repository_storage_moves"), 404)).toEqual({ message: "404 Snippet Not Found" });
    expect(await jsonBody(await s.api("/snippet_repository_storage_moves/999999"), 404)).toEqual({ message: "404 Not Found" });
    expect(await jsonBody(await s.api(`/snippets/${snippet.id}/repository_storage_moves/1`), 404)).toEqual({ message: "404 Not Found" });
    expect(await jsonBody(await post("/snippet_repository_storage_moves", {}), 400)).toEqual({ error: "source_storage_name is missing" });
    expect(await jsonBody(await post("/snippet_repository_storage_moves", { source_storage_name: "nowhere" }), 400)).toEqual({
      error: "source_storage_name does not have a valid value",
    });
    expect(
      await jsonBody(await post("/project_repository_storage_moves", { source_storage_name: "default", destination_storage_name: "nowhere" }), 400),
    ).toEqual({
      error: "destination_storage_name does not have a valid value",
    });
    expect(await jsonBody(await s.api("/projects/999999/repository_storage_moves"), 404)).toEqual({ message: "404 Project Not Found" });
  });

  it("moves a project: git pushes refused with the read-only message meanwhile, fetches served, pushes accepted afterwards on the new storage", async () => {
    const project = await jsonBody(await post("/projects", { name: "moving-project", initialize_with_readme: true }), 201);
    expect((await jsonBody(await s.api(`/projects/${project.id}`), 200)).repository_storage).toBe("default");
    const url = new URL(project.http_url_to_repo);
    url.username = "root";
    url.password = s.rootToken;
    const work = path.join(home, "work");
    expect((await gitHttp(home, home, "clone", url.toString(), work)).code).toBe(0);
    fs.writeFileSync(path.join(work, "moved.txt"), "during\n");
    expect((await gitHttp(home, work, "add", "moved.txt")).code).toBe(0);
    expect((await gitHttp(home, work, "commit", "-m", "during the move")).code).toBe(0);

    hold();
    const move = await jsonBody(await post(`/projects/${project.id}/repository_storage_moves`, {}), 201);
    expect(move).toEqual({
      id: expect.any(Number),
      created_at: expect.any(String),
      state: "scheduled",
      source_storage_name: "default",
      destination_storage_name: "fast",
      project: {
        id: project.id,
        description: null,
        name: "moving-project",
        name_with_namespace: project.name_with_namespace,
        path: "moving-project",
        path_with_namespace: project.path_with_namespace,
        created_at: project.created_at,
      },
    });
    await waitForState(s, `/project_repository_storage_moves/${move.id}`, "started");
    const pushed = await gitHttp(home, work, "push", "origin", "main");
    expect(pushed.code).not.toBe(0);
    expect(pushed.stderr, pushed.stderr).toContain(READ_ONLY);
    // Over SSH too (root's key).
    const key = generateKey();
    await jsonBody(await post("/user/keys", { title: "root", key: key.publicKey }), 201);
    const ssh = `ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o BatchMode=yes -o LogLevel=ERROR -i ${key.privatePath} -p ${s.sshPort}`;
    const viaSsh = await runCli("git", ["push", `git@127.0.0.1:${project.path_with_namespace}.git`, "main"], work, gitEnv(home, { GIT_SSH_COMMAND: ssh }));
    expect(viaSsh.code).not.toBe(0);
    expect(viaSsh.stderr, viaSsh.stderr).toContain(READ_ONLY);
    expect((await gitHttp(home, work, "fetch", "origin")).code).toBe(0);
    // API writes too.
    expect(await jsonBody(await post(`/projects/${project.id}/repository/branches`, { branch: "during", ref: "main" }), 403)).toEqual({ message: READ_ONLY });

    release();
    await waitForState(s, `/projects/${project.id}/repository_storage_moves/${move.id}`, "finished");
    mode = "pass";
    const again = await gitHttp(home, work, "push", "origin", "main");
    expect(again.code, again.stderr).toBe(0);
    const dir = path.join(fastRoot, projectPath(project.id));
    expect(execFileSync("git", ["--git-dir", dir, "show", "main:moved.txt"], { encoding: "utf8" })).toBe("during\n");
    expect(fs.existsSync(path.join(defaultRoot, projectPath(project.id)))).toBe(false);
    expect((await jsonBody(await s.api(`/projects/${project.id}`), 200)).repository_storage).toBe("fast");
    const listed = (await jsonBody(await s.api("/projects?per_page=100"), 200)) as { id: number; repository_storage: string }[];
    expect(listed.find((p) => p.id === project.id)?.repository_storage).toBe("fast");
    expect(await jsonBody(await s.api(`/projects/${project.id}/repository_storage_moves`), 200)).toEqual([{ ...move, state: "finished" }]);
  });

  it("schedules bulk moves: 202 with GitLab's message, one move per snippet (and project) repository on the source storage", async () => {
    mode = "pass";
    const a = await newSnippet("bulk a");
    const b = await newSnippet("bulk b");
    const project = await jsonBody(await post("/projects", { name: "bulk-project", initialize_with_readme: true }), 201);
    expect(await jsonBody(await post("/snippet_repository_storage_moves", { source_storage_name: "default", destination_storage_name: "fast" }), 202)).toEqual({
      message: "202 Accepted",
    });
    expect(await jsonBody(await post("/project_repository_storage_moves", { source_storage_name: "default" }), 202)).toEqual({ message: "202 Accepted" });
    for (const id of [a.id, b.id]) {
      const [m] = (await jsonBody(await s.api(`/snippets/${id}/repository_storage_moves`), 200)) as { id: number }[];
      expect(m).toMatchObject({ source_storage_name: "default", destination_storage_name: "fast" });
      await waitForState(s, `/snippet_repository_storage_moves/${m!.id}`, "finished");
      expect(fs.existsSync(path.join(fastRoot, snippetPath(id)))).toBe(true);
    }
    const [pm] = (await jsonBody(await s.api(`/projects/${project.id}/repository_storage_moves`), 200)) as { id: number }[];
    await waitForState(s, `/project_repository_storage_moves/${pm!.id}`, "finished");
    expect(fs.existsSync(path.join(fastRoot, projectPath(project.id)))).toBe(true);
  });
});

describe("a storage move across a restart", () => {
  let second: TestStack | undefined;
  const otherFast = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-fast-storage-"));
  const storages = [{ name: "fast", root: otherFast, weight: 0 }];
  afterAll(async () => {
    await second?.destroy();
    fs.rmSync(otherFast, { recursive: true, force: true });
  });

  it("resumes a move the stop interrupted and finishes it after the start", async () => {
    const first = await startTestStack(undefined, { storages, storageMoveHooks: hooks });
    const snippet = await jsonBody(
      await first.api("/snippets", { method: "POST", json: { title: "restart", visibility: "private", files: [{ file_path: "r.txt", content: "kept" }] } }),
      201,
    );
    mode = "wait-for-stop";
    const move = await jsonBody(
      await first.api(`/snippets/${snippet.id}/repository_storage_moves`, { method: "POST", json: { destination_storage_name: "fast" } }),
      201,
    );
    await waitForState(first, `/snippet_repository_storage_moves/${move.id}`, "started");
    await first.halt();
    mode = "pass";

    second = await startTestStack(first.options, { storages, storageMoveHooks: hooks });
    const done = await waitForState(second, `/snippet_repository_storage_moves/${move.id}`, "finished");
    expect(done).toMatchObject({ id: move.id, destination_storage_name: "fast" });
    expect(execFileSync("git", ["--git-dir", path.join(otherFast, snippetPath(snippet.id)), "show", "main:r.txt"], { encoding: "utf8" })).toBe("kept");
    expect(fs.existsSync(path.join(first.options.dataDir, "repositories", snippetPath(snippet.id)))).toBe(false);
    const raw = await second.api(`/snippets/${snippet.id}/raw`);
    expect(await raw.text()).toBe("kept");
  });
});

describe("placement of new repositories by weight", () => {
  let s: TestStack | undefined;
  const roots = {
    default: fs.mkdtempSync(path.join(os.tmpdir(), "quarry-default-storage-")),
    fast: fs.mkdtempSync(path.join(os.tmpdir(), "quarry-fast-storage-")),
  };
  afterAll(async () => {
    await s?.destroy();
    for (const root of Object.values(roots)) fs.rmSync(root, { recursive: true, force: true });
  });

  it("puts new project, snippet and group wiki repositories on the only storage with a weight, and the entities say so", async () => {
    s = await startTestStack(undefined, {
      storages: [
        { name: "default", root: roots.default, weight: 0 },
        { name: "fast", root: roots.fast, weight: 100 },
      ],
    });
    const api = (p: string, json?: unknown) => s!.api(p, json === undefined ? {} : { method: "POST", json });
    const project = await jsonBody(await api("/projects", { name: "weighted", initialize_with_readme: true }), 201);
    expect(fs.existsSync(path.join(roots.fast, projectPath(project.id)))).toBe(true);
    expect((await jsonBody(await api(`/projects/${project.id}`), 200)).repository_storage).toBe("fast");
    const snippet = await jsonBody(await api("/snippets", { title: "w", visibility: "public", files: [{ file_path: "w.txt", content: "w" }] }), 201);
    expect(fs.existsSync(path.join(roots.fast, snippetPath(snippet.id)))).toBe(true);
    expect((await jsonBody(await api(`/snippets/${snippet.id}`), 200)).repository_storage).toBe("fast");
    const group = await jsonBody(await api("/groups", { name: "weighted", path: "weighted" }), 201);
    // The group wiki is placed when first written.
    expect(group.repository_storage).toBe("default");
    await jsonBody(await api(`/groups/${group.id}/wikis`, { title: "home", content: "hello" }), 201);
    expect((await jsonBody(await api(`/groups/${group.id}`), 200)).repository_storage).toBe("fast");
    expect(fs.readdirSync(path.join(roots.fast, "@groups"), { recursive: true }).some((f) => String(f).endsWith(".wiki.git"))).toBe(true);
  });
});
