// Personal and project snippets end to end: plain fetch (exact statuses, headers and bodies),
// @gitbeaker/rest, and `git clone` of snippet repositories over smart HTTP (python-gitlab:
// python-gitlab.test.ts).
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let project: { id: number; path_with_namespace: string };
let priv: { id: number; path_with_namespace: string };
let alice: { id: number; username: string; token: string };
let outsider: { id: number; token: string };
let home: string;

const { post, put } = jsonRequests(() => s);

function git(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      "git",
      ["-c", "credential.helper=", ...args],
      { cwd, env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0" } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const cloneUrl = (httpUrl: string, token?: string) => {
  const u = new URL(httpUrl);
  if (token) {
    u.username = "someone";
    u.password = token;
  }
  return u.toString();
};

beforeAll(async () => {
  s = await startTestStack();
  home = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-snippets-"));
  project = await jsonBody(await post("/projects", { name: "snippety", visibility: "public" }), 201);
  priv = await jsonBody(await post("/projects", { name: "hidden-snippets", visibility: "private" }), 201);
  alice = await createUserWithToken(s);
  outsider = await createUserWithToken(s);
  await jsonBody(await post(`/projects/${project.id}/members`, { user_id: alice.id, access_level: 20 }), 201);
}, 60_000);
afterAll(async () => {
  await s?.destroy();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

describe("personal snippets", () => {
  it("creates with GitLab's entity, reads raw content and files, updates and deletes", async () => {
    const created = await jsonBody(
      await post(
        "/snippets",
        {
          title: "hello",
          description: "greeting",
          visibility: "public",
          files: [
            { file_path: "hello.rb", content: "puts 'hi'\n" },
            { file_path: "doc/readme.md", content: "# r" },
          ],
        },
        alice.token,
      ),
      201,
    );
    const web = `${s.url}/-/snippets/${created.id}`;
    expect(created).toEqual({
      id: expect.any(Number),
      title: "hello",
      description: "greeting",
      visibility: "public",
      author: expect.objectContaining({ id: alice.id, username: alice.username, state: "active", web_url: `${s.url}/${alice.username}` }),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      project_id: null,
      web_url: web,
      raw_url: `${web}/raw`,
      ssh_url_to_repo: `git@${new URL(s.url).hostname}:snippets/${created.id}.git`,
      http_url_to_repo: `${s.url}/snippets/${created.id}.git`,
      file_name: "doc/readme.md",
      files: [
        { path: "doc/readme.md", raw_url: `${web}/raw/main/doc/readme.md` },
        { path: "hello.rb", raw_url: `${web}/raw/main/hello.rb` },
      ],
      imported: false,
      imported_from: "none",
    });
    // Administrators also see the repository storage.
    expect(await jsonBody(await s.api(`/snippets/${created.id}`), 200)).toMatchObject({ repository_storage: "default" });
    // Anonymous callers read a public snippet.
    expect(await jsonBody(await s.api(`/snippets/${created.id}`, { token: null }), 200)).not.toHaveProperty("repository_storage");

    const raw = await s.api(`/snippets/${created.id}/raw`, { token: null });
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(raw.headers.get("content-disposition")).toBe(`inline; filename="readme.md"; filename*=UTF-8''readme.md`);
    expect(raw.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await raw.text()).toBe("# r");
    const file = await s.api(`/snippets/${created.id}/files/main/${encodeURIComponent("hello.rb")}/raw`, { token: alice.token });
    expect(await file.text()).toBe("puts 'hi'\n");
    expect(await jsonBody(await s.api(`/snippets/${created.id}/files/nope/hello.rb/raw`), 404)).toEqual({ message: "404 Reference Not Found" });
    expect(await jsonBody(await s.api(`/snippets/${created.id}/files/main/${encodeURIComponent("doc/missing.md")}/raw`), 404)).toEqual({
      message: "404 File Not Found",
    });

    const updated = await jsonBody(
      await put(
        `/snippets/${created.id}`,
        {
          title: "hello again",
          files: [
            { action: "update", file_path: "hello.rb", content: "puts 'bye'\n" },
            { action: "delete", file_path: "doc/readme.md" },
          ],
        },
        alice.token,
      ),
      200,
    );
    expect(updated).toMatchObject({ title: "hello again", file_name: "hello.rb", files: [{ path: "hello.rb", raw_url: `${web}/raw/main/hello.rb` }] });
    expect(await (await s.api(`/snippets/${created.id}/raw`)).text()).toBe("puts 'bye'\n");
    // Others (even administrators) find personal snippets to change among their own only.
    expect(await jsonBody(await put(`/snippets/${created.id}`, { title: "x" }, outsider.token), 404)).toEqual({ message: "404 Snippet Not Found" });
    expect(await jsonBody(await s.api(`/snippets/${created.id}`, { method: "DELETE", token: outsider.token }), 404)).toEqual({
      message: "404 Snippet Not Found",
    });
    const del = await s.api(`/snippets/${created.id}`, { method: "DELETE", token: alice.token });
    expect(del.status).toBe(204);
    expect(await jsonBody(await s.api(`/snippets/${created.id}`), 404)).toEqual({ message: "404 Snippet Not Found" });
  });

  it("answers GitLab's parameter errors", async () => {
    expect(await jsonBody(await post("/snippets", { content: "x", file_name: "a" }, alice.token), 400)).toEqual({ error: "title is missing" });
    expect(await jsonBody(await post("/snippets", { title: "t" }, alice.token), 400)).toEqual({
      error: "files, content are missing, exactly one parameter must be provided",
    });
    expect(await jsonBody(await post("/snippets", { title: "t", content: "x", files: [{ file_path: "a", content: "b" }] }, alice.token), 400)).toEqual({
      error: "files, content are mutually exclusive",
    });
    expect(await jsonBody(await post("/snippets", { title: "t", visibility: "secret", content: "x", file_name: "a" }, alice.token), 400)).toEqual({
      error: "visibility does not have a valid value",
    });
    expect(await jsonBody(await post("/snippets", { title: "t", files: [{ file_path: "../x", content: "b" }] }, alice.token), 400)).toEqual({
      error: "files[0][file_path] should be a valid file path",
    });
    expect(await jsonBody(await post("/snippets", { title: "t", files: [{ content: "b" }] }, alice.token), 400)).toEqual({
      error: "files[0][file_path] is missing",
    });
    expect(await jsonBody(await post("/snippets", { title: "t", content: "x", file_name: "a" }, null), 401)).toEqual({ message: "401 Unauthorized" });
    const mine = await jsonBody(await post("/snippets", { title: "t", content: "x", file_name: "a" }, alice.token), 201);
    expect(mine.visibility).toBe("internal");
    expect(await jsonBody(await put(`/snippets/${mine.id}`, {}, alice.token), 400)).toEqual({
      error: "content, description, files, file_name, title, visibility are missing, at least one parameter must be provided",
    });
    expect(await jsonBody(await put(`/snippets/${mine.id}`, { files: [{ action: "rename", file_path: "b" }] }, alice.token), 400)).toEqual({
      error: "files[0][action] does not have a valid value",
    });
    expect(await jsonBody(await put(`/snippets/${mine.id}`, { files: [{ action: "update", file_path: "nope", content: "z" }] }, alice.token), 400)).toEqual({
      message: { error: "Repository Error updating the snippet" },
    });
    expect(await jsonBody(await s.api("/snippets/99999999"), 404)).toEqual({ message: "404 Snippet Not Found" });
  });

  it("lists mine, public and all with pagination headers", async () => {
    const bob = await createUserWithToken(s);
    for (const [title, visibility] of [
      ["b-private", "private"],
      ["b-internal", "internal"],
      ["b-public", "public"],
    ]) {
      await jsonBody(await post("/snippets", { title, visibility, content: "x", file_name: "f.txt" }, bob.token), 201);
    }
    const res = await s.api("/snippets?per_page=2", { token: bob.token });
    expect(res.headers.get("x-total")).toBe("3");
    expect(res.headers.get("x-total-pages")).toBe("2");
    expect((await jsonBody(res, 200)).map((x: { title: string }) => x.title)).toEqual(["b-public", "b-internal"]);
    const pub = (await jsonBody(await s.api("/snippets/public?per_page=100", { token: outsider.token }), 200)).map((x: { title: string }) => x.title);
    expect(pub).toContain("b-public");
    expect(pub).not.toContain("b-internal");
    const all = (await jsonBody(await s.api("/snippets/all?per_page=100", { token: outsider.token }), 200)).map((x: { title: string }) => x.title);
    expect(all).toEqual(expect.arrayContaining(["b-public", "b-internal"]));
    expect(all).not.toContain("b-private");
    expect(await jsonBody(await s.api("/snippets", { token: null }), 401)).toEqual({ message: "401 Unauthorized" });
    expect(await jsonBody(await s.api("/snippets/public", { token: null }), 401)).toEqual({ message: "401 Unauthorized" });
  });
});

describe("project snippets", () => {
  it("creates, reads, updates and deletes with the project's URLs and roles", async () => {
    const base = `/projects/${project.id}/snippets`;
    expect(await jsonBody(await post(base, { title: "t", visibility: "private", content: "x", file_name: "a" }, outsider.token), 403)).toEqual({
      message: "403 Forbidden",
    });
    expect(await jsonBody(await post(base, { title: "t", content: "x", file_name: "a" }, alice.token), 400)).toEqual({ error: "visibility is missing" });
    const sn = await jsonBody(await post(base, { title: "proj", visibility: "private", file_name: "notes.txt", content: "secret" }, alice.token), 201);
    const web = `${s.url}/${project.path_with_namespace}/-/snippets/${sn.id}`;
    expect(sn).toMatchObject({
      project_id: project.id,
      web_url: web,
      raw_url: `${web}/raw`,
      http_url_to_repo: `${s.url}/${project.path_with_namespace}/snippets/${sn.id}.git`,
      ssh_url_to_repo: `git@${new URL(s.url).hostname}:${project.path_with_namespace}/snippets/${sn.id}.git`,
      file_name: "notes.txt",
      files: [{ path: "notes.txt", raw_url: `${web}/raw/main/notes.txt` }],
    });
    // Private: members only.
    expect(await jsonBody(await s.api(`${base}/${sn.id}`, { token: outsider.token }), 404)).toEqual({ message: "404 Snippet Not Found" });
    expect((await jsonBody(await s.api(base, { token: outsider.token }), 200)).map((x: { id: number }) => x.id)).not.toContain(sn.id);
    expect((await jsonBody(await s.api(base, { token: alice.token }), 200)).map((x: { id: number }) => x.id)).toContain(sn.id);
    const raw = await s.api(`${base}/${sn.id}/raw`, { token: alice.token });
    expect(raw.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await raw.text()).toBe("secret");
    expect(await (await s.api(`${base}/${sn.id}/files/main/notes.txt/raw`, { token: alice.token })).text()).toBe("secret");
    expect(await jsonBody(await put(`${base}/${sn.id}`, { visibility: "public" }, outsider.token), 404)).toEqual({ message: "404 Snippet Not Found" });
    expect(await jsonBody(await put(`${base}/${sn.id}`, { visibility: "public", content: "open" }, alice.token), 200)).toMatchObject({ visibility: "public" });
    expect(await (await s.api(`${base}/${sn.id}/raw`, { token: null })).text()).toBe("open");
    expect(await jsonBody(await s.api(base, { token: null }), 401)).toEqual({ message: "401 Unauthorized" });
    // The snippets of a private project are invisible to outsiders.
    const hidden = await jsonBody(await post(`/projects/${priv.id}/snippets`, { title: "h", visibility: "public", content: "x", file_name: "a" }), 201);
    expect(await jsonBody(await s.api(`/projects/${priv.id}/snippets/${hidden.id}`, { token: outsider.token }), 404)).toEqual({
      message: "404 Project Not Found",
    });
    expect(await jsonBody(await s.api(`/snippets/${hidden.id}`, { token: outsider.token }), 404)).toEqual({ message: "404 Snippet Not Found" });
    expect((await s.api(`${base}/${sn.id}`, { method: "DELETE", token: alice.token })).status).toBe(204);
    expect(await jsonBody(await s.api(`${base}/${sn.id}`), 404)).toEqual({ message: "404 Snippet Not Found" });
  });
});

describe("@gitbeaker/rest", () => {
  it("drives Snippets and ProjectSnippets", async () => {
    const api = s.gitlab(alice.token);
    const created = await api.Snippets.create("beaker", {
      files: [{ filePath: "b.txt", content: "beaker" }],
      visibility: "public",
      description: "from gitbeaker",
    });
    expect(created).toMatchObject({ title: "beaker", description: "from gitbeaker", visibility: "public", file_name: "b.txt" });
    expect((await api.Snippets.all()).map((x) => x.id)).toContain(created.id);
    expect((await api.Snippets.show(created.id as number)).title).toBe("beaker");
    expect(await api.Snippets.showContent(created.id as number)).toBe("beaker");
    const edited = await api.Snippets.edit(created.id as number, { description: "edited", files: [{ action: "create", filePath: "c.txt", content: "c" }] });
    expect(edited).toMatchObject({ description: "edited", files: [{ path: "b.txt" }, { path: "c.txt" }] });
    await api.Snippets.remove(created.id as number);

    const ps = await api.ProjectSnippets.create(project.id, "proj beaker", {
      files: [{ filePath: "p.txt", content: "project beaker" }],
      visibility: "internal",
    });
    expect(ps).toMatchObject({ title: "proj beaker", project_id: project.id, visibility: "internal", file_name: "p.txt" });
    expect((await api.ProjectSnippets.all(project.id)).map((x) => x.id)).toContain(ps.id);
    expect((await api.ProjectSnippets.show(project.id, ps.id as number)).title).toBe("proj beaker");
    expect(await api.ProjectSnippets.showContent(project.id, ps.id as number)).toBe("project beaker");
    expect(await api.ProjectSnippets.showRepositoryFileContent(project.id, ps.id as number, "main", "p.txt")).toBe("project beaker");
    const psEdited = await api.ProjectSnippets.edit(project.id, ps.id as number, {
      visibility: "public",
      files: [{ action: "move", previousPath: "p.txt", filePath: "q.txt" }],
    });
    expect(psEdited).toMatchObject({ visibility: "public", file_name: "q.txt" });
    await api.ProjectSnippets.remove(project.id, ps.id as number);
  });
});

describe("git clone of snippet repositories", () => {
  it("clones a public snippet anonymously with one commit per change; private ones need access; pushing is refused", async () => {
    const sn = await jsonBody(
      await post("/snippets", { title: "cloned", visibility: "public", files: [{ file_path: "a.txt", content: "one\n" }] }, alice.token),
      201,
    );
    await jsonBody(await put(`/snippets/${sn.id}`, { files: [{ action: "update", file_path: "a.txt", content: "two\n" }] }, alice.token), 200);
    await jsonBody(await put(`/snippets/${sn.id}`, { files: [{ action: "create", file_path: "b.txt", content: "b\n" }] }, alice.token), 200);
    const dir = path.join(home, "public-clone");
    const clone = await git(home, "clone", sn.http_url_to_repo, dir);
    expect(clone.code, clone.stderr).toBe(0);
    expect(fs.readFileSync(path.join(dir, "a.txt"), "utf8")).toBe("two\n");
    expect(fs.readFileSync(path.join(dir, "b.txt"), "utf8")).toBe("b\n");
    expect((await git(dir, "log", "--format=%s|%an")).stdout.trim().split("\n")).toEqual([
      `Update snippet|User ${alice.username.slice(4)}`,
      `Update snippet|User ${alice.username.slice(4)}`,
      `Initial commit|User ${alice.username.slice(4)}`,
    ]);

    const ps = await jsonBody(
      await post(`/projects/${project.id}/snippets`, { title: "p", visibility: "private", file_name: "p.txt", content: "p\n" }, alice.token),
      201,
    );
    expect(ps.http_url_to_repo).toBe(`${s.url}/${project.path_with_namespace}/snippets/${ps.id}.git`);
    const anon = await fetch(`${ps.http_url_to_repo}/info/refs?service=git-upload-pack`);
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toBe('Basic realm="GitLab"');
    const other = await git(home, "clone", cloneUrl(ps.http_url_to_repo, outsider.token), path.join(home, "denied"));
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain("The snippet you were looking for could not be found.");
    const member = await git(home, "clone", cloneUrl(ps.http_url_to_repo, alice.token), path.join(home, "member-clone"));
    expect(member.code, member.stderr).toBe(0);
    expect(fs.readFileSync(path.join(home, "member-clone", "p.txt"), "utf8")).toBe("p\n");

    const push = await fetch(`${ps.http_url_to_repo}/info/refs?service=git-receive-pack`, {
      headers: { Authorization: `Basic ${Buffer.from(`x:${alice.token}`).toString("base64")}` },
    });
    expect(push.status).toBe(403);
    expect(await push.text()).toBe("Pushing to snippet repositories is not supported.");
  });
});
