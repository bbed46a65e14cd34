import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@quarry/testing";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";

// Project wikis: pages in the project's wiki repository, through gitbeaker and fetch.
let s: TestStack;
let r: Receiver;
beforeAll(async () => {
  s = await startTestStack(undefined, { maxAttachmentBytes: 1024, hookSettings: { maxAttempts: 2, retryBaseMs: 20, timeoutMs: 3000, pollIntervalMs: 50 } });
  r = await startReceiver();
}, 60_000);
afterAll(async () => {
  await r?.close();
  await s?.destroy();
});
const { post, put, del } = jsonRequests(() => s);

/** A private project with a Guest, a Reporter and a Developer. */
async function project() {
  const [guest, reporter, developer] = [await createUserWithToken(s), await createUserWithToken(s), await createUserWithToken(s)];
  const p = await jsonBody(await post("/projects", { name: `wiki-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`, visibility: "private" }), 201);
  for (const [u, level] of [
    [guest, 10],
    [reporter, 20],
    [developer, 30],
  ] as const) {
    await jsonBody(await post(`/projects/${p.id}/members`, { user_id: u.id, access_level: level }), 201);
  }
  return { p: p as { id: number; path_with_namespace: string }, guest, reporter, developer };
}

describe("project wiki pages", () => {
  it("creates, lists, reads, updates and deletes pages (gitbeaker)", async () => {
    const { p, developer, guest } = await project();
    const dev = s.gitlab(developer.token);
    expect(await dev.ProjectWikis.all(p.id)).toEqual([]);
    const created = await dev.ProjectWikis.create(p.id, "# Welcome", "Home Page");
    expect(created).toEqual({ format: "markdown", slug: "Home-Page", title: "Home Page", content: "# Welcome", encoding: "UTF-8", front_matter: {} });
    await dev.ProjectWikis.create(p.id, "= Doc", "docs/Set up", { format: "asciidoc" });
    expect(await s.gitlab(guest.token).ProjectWikis.all(p.id)).toEqual([
      { format: "markdown", slug: "Home-Page", title: "Home Page" },
      { format: "asciidoc", slug: "docs/Set-up", title: "Set up" },
    ]);
    expect(await dev.ProjectWikis.all(p.id, { withContent: true })).toEqual([
      { format: "markdown", slug: "Home-Page", title: "Home Page", content: "# Welcome", encoding: "UTF-8", front_matter: {} },
      { format: "asciidoc", slug: "docs/Set-up", title: "Set up", content: "= Doc", encoding: "UTF-8", front_matter: {} },
    ]);
    expect(await s.gitlab(guest.token).ProjectWikis.show(p.id, "docs/Set-up")).toMatchObject({ slug: "docs/Set-up", content: "= Doc" });
    const updated = await dev.ProjectWikis.edit(p.id, "Home-Page", { content: "# Hello" });
    expect(updated).toMatchObject({ slug: "Home-Page", content: "# Hello" });
    await dev.ProjectWikis.remove(p.id, "docs/Set-up");
    expect((await dev.ProjectWikis.all(p.id)).map((w) => (w as { slug: string }).slug)).toEqual(["Home-Page"]);
  });

  it("takes URL-encoded slugs with directories, renames on title, reads old versions", async () => {
    const { p } = await project();
    await jsonBody(await post(`/projects/${p.id}/wikis`, { title: "a/b c", content: "one" }), 201);
    const page = await jsonBody(await s.api(`/projects/${p.id}/wikis/a%2Fb-c`), 200);
    expect(page).toEqual({ format: "markdown", slug: "a/b-c", title: "b c", content: "one", encoding: "UTF-8", front_matter: {} });
    expect(await jsonBody(await put(`/projects/${p.id}/wikis/a%2Fb-c`, { title: "Renamed", format: "org", content: "two" }), 200)).toEqual({
      format: "org",
      slug: "a/Renamed",
      title: "Renamed",
      content: "two",
      encoding: "UTF-8",
      front_matter: {},
    });
    expect(await jsonBody(await s.api(`/projects/${p.id}/wikis/a%2Fb-c`), 404)).toEqual({ message: "404 Wiki Page Not Found" });
    // The version parameter: the page as of a commit of the wiki repository.
    await jsonBody(await put(`/projects/${p.id}/wikis/a%2FRenamed`, { content: "three" }), 200);
    const commits = await wikiCommits();
    expect(commits.length).toBe(3);
    const second = await jsonBody(await s.api(`/projects/${p.id}/wikis/a%2FRenamed?version=${commits[1]}`), 200);
    expect(second.content).toBe("two");
    expect(await jsonBody(await s.api(`/projects/${p.id}/wikis/a%2FRenamed?version=${"f".repeat(40)}`), 404)).toEqual({ message: "404 Wiki Page Not Found" });
  });

  it("renders Markdown to sanitized HTML with render_html", async () => {
    const { p } = await project();
    const content = '# Title\n\n**bold** <script>alert(1)</script> <a href="javascript:alert(1)" onclick="x()">x</a>';
    await jsonBody(await post(`/projects/${p.id}/wikis`, { title: "Render", content }), 201);
    const html = (await jsonBody(await s.api(`/projects/${p.id}/wikis/Render?render_html=true`), 200)).content as string;
    expect(html).toContain("<h1>Title</h1>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).not.toContain("<script");
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("onclick");
    expect(html).toContain("<a>x</a>");
    expect((await jsonBody(await s.api(`/projects/${p.id}/wikis/Render`), 200)).content).toBe(content);
  });

  it("answers GitLab's errors and checks roles", async () => {
    const { p, guest, reporter, developer } = await project();
    expect(await jsonBody(await post(`/projects/${p.id}/wikis`, { title: "T" }), 400)).toEqual({ error: "content is missing" });
    expect(await jsonBody(await post(`/projects/${p.id}/wikis`, { title: "T", content: "x", format: "textile" }), 400)).toEqual({
      error: "format does not have a valid value",
    });
    await jsonBody(await post(`/projects/${p.id}/wikis`, { title: "T", content: "x" }, developer.token), 201);
    expect(await jsonBody(await post(`/projects/${p.id}/wikis`, { title: "T", content: "y" }), 400)).toEqual({
      message: { base: ["Duplicate page: A page with that title already exists"] },
    });
    expect(await jsonBody(await put(`/projects/${p.id}/wikis/T`, {}), 400)).toEqual({
      error: "content, title, format are missing, at least one parameter must be provided",
    });
    expect(await jsonBody(await put(`/projects/${p.id}/wikis/nope`, { content: "x" }), 404)).toEqual({ message: "404 Wiki Page Not Found" });
    expect(await jsonBody(await del(`/projects/${p.id}/wikis/nope`), 404)).toEqual({ message: "404 Wiki Page Not Found" });
    // Guests read, Developers write.
    expect((await jsonBody(await s.api(`/projects/${p.id}/wikis`, { token: guest.token }), 200)).length).toBe(1);
    expect((await post(`/projects/${p.id}/wikis`, { title: "R", content: "x" }, reporter.token)).status).toBe(403);
    expect((await del(`/projects/${p.id}/wikis/T`, guest.token)).status).toBe(403);
    expect((await post(`/projects/${p.id}/wikis`, { title: "A", content: "x" }, null)).status).toBe(401);
    expect(await jsonBody(await s.api(`/projects/${p.id}/wikis`, { token: null }), 404)).toEqual({ message: "404 Project Not Found" });
    expect((await del(`/projects/${p.id}/wikis/T`, developer.token)).status).toBe(204);
  });

  it("commits attachments under uploads/ and answers GitLab's upload result", async () => {
    const { p, developer } = await project();
    const form = (name: string, data: string, branch?: string) => {
      const f = new FormData();
      f.append("file", new Blob([data]), name);
      if (branch) f.append("branch", branch);
      return f;
    };
    const png = await jsonBody(
      await s.api(`/projects/${p.id}/wikis/attachments`, { method: "POST", body: form("dog.png", "PNG"), token: developer.token }),
      201,
    );
    expect(png.file_path).toMatch(/^uploads\/[0-9a-f]{32}\/dog\.png$/);
    expect(png).toEqual({ file_name: "dog.png", file_path: png.file_path, branch: "main", link: { url: png.file_path, markdown: `![dog](${png.file_path})` } });
    const viaGitbeaker = (await s.gitlab(developer.token).ProjectWikis.uploadAttachment(p.id, { content: new Blob(["a"]), filename: "a.pdf" })) as {
      file_name: string;
    };
    expect(viaGitbeaker.file_name).toBe("a.pdf");
    const txt = await jsonBody(await s.api(`/projects/${p.id}/wikis/attachments`, { method: "POST", body: form("notes.txt", "n", "side") }), 201);
    expect(txt).toMatchObject({ file_name: "notes.txt", branch: "side", link: { markdown: `[notes.txt](${txt.file_path})` } });
    expect(await jsonBody(await s.api(`/projects/${p.id}/wikis/attachments`, { method: "POST", body: new FormData() }), 400)).toEqual({
      error: "file is missing",
    });
    expect(await jsonBody(await s.api(`/projects/${p.id}/wikis/attachments`, { method: "POST", body: form("big.bin", "x".repeat(1025)) }), 413)).toEqual({
      message: "413 Request Entity Too Large",
    });
    // Attachments are no pages.
    expect(await jsonBody(await s.api(`/projects/${p.id}/wikis`), 200)).toEqual([]);
  });

  it("shows wikis enabled on the project", async () => {
    const { p } = await project();
    expect(await jsonBody(await s.api(`/projects/${p.id}`), 200)).toMatchObject({ wiki_enabled: true, wiki_access_level: "enabled" });
  });
});

describe("group wiki pages", () => {
  it("keep pages per group: Guests read, Developers write, others see no group", async () => {
    const [guest, developer, outsider] = [await createUserWithToken(s), await createUserWithToken(s), await createUserWithToken(s)];
    const n = Math.random().toString(36).slice(2, 8);
    const g = await jsonBody(await post("/groups", { name: `wg-${n}`, path: `wg-${n}`, visibility: "private" }), 201);
    const other = await jsonBody(await post("/groups", { name: `wo-${n}`, path: `wo-${n}`, visibility: "private" }), 201);
    await jsonBody(await post(`/groups/${g.id}/members`, { user_id: guest.id, access_level: 10 }), 201);
    await jsonBody(await post(`/groups/${g.id}/members`, { user_id: developer.id, access_level: 30 }), 201);
    const dev = s.gitlab(developer.token);
    expect(await dev.GroupWikis.create(g.id, "group words", "Group Home")).toEqual({
      format: "markdown",
      slug: "Group-Home",
      title: "Group Home",
      content: "group words",
      encoding: "UTF-8",
      front_matter: {},
    });
    expect(await s.gitlab(guest.token).GroupWikis.all(g.id)).toEqual([{ format: "markdown", slug: "Group-Home", title: "Group Home" }]);
    expect(await jsonBody(await s.api(`/groups/${g.id}/wikis/Group-Home`, { token: guest.token }), 200)).toMatchObject({
      slug: "Group-Home",
      content: "group words",
    });
    expect(await jsonBody(await put(`/groups/${g.id}/wikis/Group-Home`, { content: "x" }, guest.token), 403)).toEqual({ message: "403 Forbidden" });
    expect((await s.api(`/groups/${g.id}/wikis`, { token: outsider.token })).status).toBe(404);
    // Each group has its own wiki, apart from projects' wikis.
    expect(await jsonBody(await s.api(`/groups/${other.id}/wikis`), 200)).toEqual([]);
    expect(await jsonBody(await put(`/groups/${g.id}/wikis/Group-Home`, { title: "Renamed" }, developer.token), 200)).toMatchObject({ slug: "Renamed" });
    const f = new FormData();
    f.append("file", new Blob(["x"]), "g.txt");
    expect(await jsonBody(await s.api(`/groups/${g.id}/wikis/attachments`, { method: "POST", body: f, token: developer.token }), 201)).toMatchObject({
      file_name: "g.txt",
      branch: "main",
    });
    expect((await del(`/groups/${g.id}/wikis/Renamed`, developer.token)).status).toBe(204);
    expect(await jsonBody(await s.api(`/groups/${g.id}/wikis/Renamed`), 404)).toEqual({ message: "404 Wiki Page Not Found" });
  });
});

describe("wiki page webhooks", () => {
  it("delivers GitLab's Wiki Page Hook for create, update and delete to hooks with wiki_page_events", async () => {
    const { p, developer } = await project();
    await jsonBody(await post(`/projects/${p.id}/hooks`, { url: `${r.url}/wiki`, wiki_page_events: true, push_events: false }), 201);
    await jsonBody(await post(`/projects/${p.id}/hooks`, { url: `${r.url}/no-wiki`, push_events: true }), 201);
    const created = await jsonBody(await post(`/projects/${p.id}/wikis`, { title: "Hooked Page", content: "c1" }, developer.token), 201);
    await jsonBody(await put(`/projects/${p.id}/wikis/Hooked-Page`, { content: "c2" }, developer.token), 200);
    expect((await del(`/projects/${p.id}/wikis/Hooked-Page`, developer.token)).status).toBe(204);
    const got = await waitFor(
      () => {
        const list = r.requests.filter((q) => q.path === "/wiki" && (q.json?.project as { id?: number } | undefined)?.id === p.id);
        return list.length === 3 ? list : undefined;
      },
      { message: "three wiki page hooks" },
    );
    expect(got.map((q) => q.headers["x-service-event"])).toEqual(["Wiki Page Hook", "Wiki Page Hook", "Wiki Page Hook"]);
    expect(got.map((q) => (q.json!.object_attributes as { action: string }).action)).toEqual(["create", "update", "delete"]);
    const web = `${s.url}/${p.path_with_namespace}`;
    const first = got[0]!.json!;
    const versionId = (first.object_attributes as { version_id: string }).version_id;
    expect(versionId).toMatch(/^[0-9a-f]{40}$/);
    expect(first).toMatchObject({
      object_kind: "wiki_page",
      user: { id: developer.id, username: developer.username },
      project: { id: p.id, path_with_namespace: p.path_with_namespace },
      wiki: { web_url: `${web}/-/wikis/home`, git_http_url: `${web}.wiki.git`, path_with_namespace: `${p.path_with_namespace}.wiki`, default_branch: "main" },
      object_attributes: {
        title: "Hooked Page",
        content: "c1",
        format: "markdown",
        message: `${developer.username} created page: Hooked Page`,
        slug: created.slug,
        url: `${web}/-/wikis/Hooked-Page`,
        action: "create",
        diff_url: `${web}/-/wikis/Hooked-Page/diff?version_id=${versionId}`,
        version_id: versionId,
      },
    });
    expect(Object.keys(first).sort()).toEqual(["object_attributes", "object_kind", "project", "user", "wiki"]);
    expect(r.requests.filter((q) => q.path === "/no-wiki" && (q.json?.project as { id?: number } | undefined)?.id === p.id)).toEqual([]);
  });
});

/** Runs the git CLI with a throwaway HOME, no credential helper and no prompts. */
function git(cwd: string, ...args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      "git",
      ["-c", "credential.helper=", "-c", "init.defaultBranch=main", ...args],
      {
        cwd,
        env: {
          PATH: process.env.PATH,
          HOME: cwd,
          GIT_CONFIG_NOSYSTEM: "1",
          GIT_TERMINAL_PROMPT: "0",
          GIT_AUTHOR_NAME: "Dev",
          GIT_AUTHOR_EMAIL: "dev@example.com",
          GIT_COMMITTER_NAME: "Dev",
          GIT_COMMITTER_EMAIL: "dev@example.com",
        },
      },
      (err, _stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

describe("the wiki repository over smart HTTP", () => {
  it("clones, and a Developer's pushed page appears in the API; Guests may not push", async () => {
    const { p, developer, guest } = await project();
    const wikiUrl = (u: { username: string; token: string }) => {
      const url = new URL(`${s.url}/${p.path_with_namespace}.wiki.git`);
      url.username = u.username;
      url.password = u.token;
      return url.toString();
    };
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "wiki-git-"));
    try {
      // An unwritten wiki clones (empty), as GitLab creates it on access.
      const empty = await git(home, "clone", wikiUrl(developer), path.join(home, "empty"));
      expect(empty.code, empty.stderr).toBe(0);
      await jsonBody(await post(`/projects/${p.id}/wikis`, { title: "Home", content: "home" }), 201);
      const work = path.join(home, "work");
      const clone = await git(home, "clone", wikiUrl(developer), work);
      expect(clone.code, clone.stderr).toBe(0);
      expect(fs.readFileSync(path.join(work, "Home.md"), "utf8")).toBe("home");
      fs.mkdirSync(path.join(work, "guide"));
      fs.writeFileSync(path.join(work, "guide", "Pushed-Page.md"), "pushed with git");
      expect((await git(work, "add", ".")).code).toBe(0);
      expect((await git(work, "commit", "-m", "add a page")).code).toBe(0);
      const push = await git(work, "push", "origin", "main");
      expect(push.code, push.stderr).toBe(0);
      expect(await jsonBody(await s.api(`/projects/${p.id}/wikis/guide%2FPushed-Page`), 200)).toEqual({
        format: "markdown",
        slug: "guide/Pushed-Page",
        title: "Pushed Page",
        content: "pushed with git",
        encoding: "UTF-8",
        front_matter: {},
      });
      // A pushed wiki is no project push: the project repository stays empty.
      expect(await jsonBody(await s.api(`/projects/${p.id}/repository/branches`), 200)).toEqual([]);
      // Guests read the wiki but may not write to it.
      const guestClone = path.join(home, "guest");
      expect((await git(home, "clone", wikiUrl(guest), guestClone)).code).toBe(0);
      fs.writeFileSync(path.join(guestClone, "X.md"), "x");
      await git(guestClone, "add", ".");
      await git(guestClone, "commit", "-m", "x");
      const refused = await git(guestClone, "push", "origin", "main");
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain("You are not allowed to write to this project's wiki.");
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});

/** The wiki repository's commits on main, oldest first, read straight from the storage. */
async function wikiCommits(): Promise<string[]> {
  const { execFileSync } = await import("node:child_process");
  const { readdirSync } = await import("node:fs");
  const path = await import("node:path");
  const root = s.options.dataDir;
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory() && e.name.endsWith(".wiki.git")) found.push(full);
      else if (e.isDirectory()) walk(full);
    }
  };
  walk(root);
  const dirs = found.filter((d) => {
    const subjects = execFileSync("git", ["--git-dir", d, "log", "--format=%s", "main"], { encoding: "utf8" });
    return subjects.includes("page: Renamed") || subjects.includes("page: b c");
  });
  expect(dirs.length).toBe(1);
  return execFileSync("git", ["--git-dir", dirs[0]!, "rev-list", "--reverse", "main"], { encoding: "utf8" }).trim().split("\n");
}
