import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";
import { type Receiver, startReceiver } from "./webhook-receiver.ts";
import { gitHttp } from "./git-cli.ts";

// Group wikis over git's smart HTTP, wiki page webhooks from git pushes and group wiki writes,
// and render_html for AsciiDoc and Org.
let s: TestStack;
let r: Receiver;
let home: string;
beforeAll(async () => {
  s = await startTestStack(undefined, { hookSettings: { maxAttempts: 2, retryBaseMs: 20, timeoutMs: 3000, pollIntervalMs: 50 } });
  r = await startReceiver();
  home = fs.mkdtempSync(path.join(os.tmpdir(), "wikis-git-"));
}, 60_000);
afterAll(async () => {
  await r?.close();
  await s?.destroy();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});
const { post, put } = jsonRequests(() => s);

type User = { id: number; username: string; token: string };
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Runs the git CLI (see git-cli.ts). */
const git = (cwd: string, ...args: string[]) => gitHttp(home, cwd, ...args);

/** The wiki's smart HTTP URL with a user's token (anonymous without one). */
function wikiUrl(fullPath: string, u?: { username: string; token: string }): string {
  const url = new URL(`${s.url}/${fullPath}.wiki.git`);
  if (u) {
    url.username = u.username;
    url.password = u.token;
  }
  return url.toString();
}

/** Clones into a new directory below `home`; the test fails with git's stderr on error. */
async function clone(url: string): Promise<string> {
  const dir = path.join(home, `c-${unique()}`);
  const res = await git(home, "clone", url, dir);
  expect(res.code, res.stderr).toBe(0);
  return dir;
}

/** Writes (content) or removes (null) files, commits them with `message` and pushes main. */
async function commitAndPush(dir: string, files: Record<string, string | null>, message: string) {
  for (const [file, content] of Object.entries(files)) {
    const full = path.join(dir, file);
    if (content === null) fs.rmSync(full);
    else {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, content);
    }
  }
  expect((await git(dir, "add", "-A")).code).toBe(0);
  expect((await git(dir, "commit", "-q", "-m", message)).code).toBe(0);
  return git(dir, "push", "origin", "main");
}

/** A group (top-level, or below `parentId`) with a Guest, a Reporter and a Developer. */
async function group(visibility: "private" | "public", parentId?: number) {
  const [guest, reporter, developer] = [await createUserWithToken(s), await createUserWithToken(s), await createUserWithToken(s)];
  const n = unique();
  const g = (await jsonBody(await post("/groups", { name: `wg-${n}`, path: `wg-${n}`, visibility, ...(parentId ? { parent_id: parentId } : {}) }), 201)) as {
    id: number;
    full_path: string;
  };
  for (const [u, level] of [
    [guest, 10],
    [reporter, 20],
    [developer, 30],
  ] as const) {
    await jsonBody(await post(`/groups/${g.id}/members`, { user_id: u.id, access_level: level }), 201);
  }
  return { g, guest, reporter, developer };
}

const hooksAt = (p: string) => r.requests.filter((q) => q.path === p);

describe("group wikis over smart HTTP", () => {
  it("clone and push at /<group>.wiki.git: Guests fetch, Developers push, pushed pages appear in the API", async () => {
    const { g, guest, reporter, developer } = await group("private");
    const outsider = await createUserWithToken(s);
    // An unwritten wiki clones (empty): the repository is made on first access.
    const work = await clone(wikiUrl(g.full_path, developer));
    const pushed = await commitAndPush(work, { "Home.md": "# Group home", "dir/Pushed-Page.md": "pushed with git" }, "two pages");
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(await s.gitlab(guest.token).GroupWikis.all(g.id)).toEqual([
      { format: "markdown", slug: "Home", title: "Home" },
      { format: "markdown", slug: "dir/Pushed-Page", title: "Pushed Page" },
    ]);
    expect(await jsonBody(await s.api(`/groups/${g.id}/wikis/dir%2FPushed-Page`, { token: guest.token }), 200)).toEqual({
      format: "markdown",
      slug: "dir/Pushed-Page",
      title: "Pushed Page",
      content: "pushed with git",
      encoding: "UTF-8",
      front_matter: {},
    });
    // Pages written through the API reach clones.
    await jsonBody(await post(`/groups/${g.id}/wikis`, { title: "From API", content: "api words" }, developer.token), 201);
    const guestWork = await clone(wikiUrl(g.full_path, guest));
    expect(fs.readFileSync(path.join(guestWork, "From-API.md"), "utf8")).toBe("api words");
    // Guests and Reporters may not push.
    for (const u of [guest, reporter]) {
      const dir = await clone(wikiUrl(g.full_path, u));
      const refused = await commitAndPush(dir, { "X.md": "x" }, "x");
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain("You are not allowed to write to this project's wiki.");
    }
    // Non-members see no group; anonymous callers are asked to sign in.
    const hidden = await git(home, "clone", wikiUrl(g.full_path, outsider), path.join(home, `o-${unique()}`));
    expect(hidden.code).not.toBe(0);
    expect(hidden.stderr).toContain("The project you were looking for could not be found");
    const anonymous = await fetch(`${s.url}/${g.full_path}.wiki.git/info/refs?service=git-upload-pack`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe('Basic realm="GitLab"');
    const anonymousPush = await fetch(`${s.url}/${g.full_path}.wiki.git/info/refs?service=git-receive-pack`);
    expect(anonymousPush.status).toBe(401);
    // Only the pages of this wiki: the Reporter's and Guest's pushes changed nothing.
    expect((await s.gitlab(developer.token).GroupWikis.all(g.id)).map((p) => (p as { slug: string }).slug)).toEqual(["From-API", "Home", "dir/Pushed-Page"]);
    // python-gitlab reads the pushed page.
    expect(await runPythonScript(s, "group-wikis", { token: guest.token, group_id: g.id, slug: "dir/Pushed-Page" })).toEqual({
      listed: ["From-API", "Home", "dir/Pushed-Page"],
      got: { slug: "dir/Pushed-Page", title: "Pushed Page", format: "markdown", content: "pushed with git" },
      missing: [404, "404 Wiki Page Not Found"],
    });
  });

  it("serves subgroups' wikis at /<group>/<sub>.wiki.git, anonymously for public groups", async () => {
    const parent = await group("public");
    const sub = await group("public", parent.g.id);
    expect(sub.g.full_path).toBe(`${parent.g.full_path}/${sub.g.full_path.split("/").pop()}`);
    await jsonBody(await post(`/groups/${sub.g.id}/wikis`, { title: "Sub Home", content: "sub words" }), 201);
    const anonymous = await clone(wikiUrl(sub.g.full_path));
    expect(fs.readFileSync(path.join(anonymous, "Sub-Home.md"), "utf8")).toBe("sub words");
    // A Developer of the parent group pushes to the subgroup's wiki (inherited membership).
    const work = await clone(wikiUrl(sub.g.full_path, parent.developer));
    const pushed = await commitAndPush(work, { "Sub-Home.md": "changed" }, "change");
    expect(pushed.code, pushed.stderr).toBe(0);
    expect((await jsonBody(await s.api(`/groups/${sub.g.id}/wikis/Sub-Home`), 200)).content).toBe("changed");
    // Each wiki is its own: the parent's is still empty.
    expect(await jsonBody(await s.api(`/groups/${parent.g.id}/wikis`), 200)).toEqual([]);
    // A project of the path comes first: a project wiki in the same group is served as before.
    const p = await jsonBody(await post("/projects", { name: `p-${unique()}`, namespace_id: sub.g.id, visibility: "public" }), 201);
    await jsonBody(await post(`/projects/${p.id}/wikis`, { title: "Project Page", content: "project words" }), 201);
    const projectWiki = await clone(wikiUrl(p.path_with_namespace));
    expect(fs.readdirSync(projectWiki).filter((f) => !f.startsWith("."))).toEqual(["Project-Page.md"]);
  });
});

describe("wiki page webhooks from git pushes and group wikis", () => {
  it("a push to a project wiki sends one Wiki Page Hook per page created, updated or deleted", async () => {
    const developer = (await createUserWithToken(s)) as User;
    const p = await jsonBody(await post("/projects", { name: `wp-${unique()}`, visibility: "private" }), 201);
    await jsonBody(await post(`/projects/${p.id}/members`, { user_id: developer.id, access_level: 30 }), 201);
    await jsonBody(await post(`/projects/${p.id}/wikis`, { title: "Home", content: "v1" }), 201);
    await jsonBody(await post(`/projects/${p.id}/wikis`, { title: "Gone", content: "bye" }), 201);
    const hookPath = `/project-wiki-${p.id}`;
    await jsonBody(await post(`/projects/${p.id}/hooks`, { url: `${r.url}${hookPath}`, wiki_page_events: true, push_events: true }), 201);
    const work = await clone(wikiUrl(p.path_with_namespace, developer));
    const pushed = await commitAndPush(work, { "Home.md": "v2", "Gone.md": null, "guide/Doc.adoc": "= Doc", "uploads/f.bin": "b" }, "edit with git");
    expect(pushed.code, pushed.stderr).toBe(0);
    const head = (await git(work, "rev-parse", "HEAD")).stdout.trim();
    const got = await waitFor(() => (hooksAt(hookPath).length === 3 ? hooksAt(hookPath) : undefined), { message: "three wiki page hooks" });
    // No push event: a wiki push is no project push.
    expect(got.map((q) => q.headers["x-service-event"])).toEqual(["Wiki Page Hook", "Wiki Page Hook", "Wiki Page Hook"]);
    const web = `${s.url}/${p.path_with_namespace}`;
    const byAction = Object.fromEntries(got.map((q) => [(q.json!.object_attributes as { action: string }).action, q.json!]));
    expect(Object.keys(byAction).sort()).toEqual(["create", "delete", "update"]);
    expect(byAction.create).toMatchObject({
      object_kind: "wiki_page",
      user: { id: developer.id, username: developer.username },
      project: { id: p.id, path_with_namespace: p.path_with_namespace },
      wiki: { web_url: `${web}/-/wikis/home`, git_http_url: `${web}.wiki.git` },
      object_attributes: {
        title: "Doc",
        content: "= Doc",
        format: "asciidoc",
        message: "edit with git",
        slug: "guide/Doc",
        url: `${web}/-/wikis/guide/Doc`,
        action: "create",
        version_id: head,
        diff_url: `${web}/-/wikis/guide/Doc/diff?version_id=${head}`,
      },
    });
    expect(byAction.update!.object_attributes).toMatchObject({ slug: "Home", content: "v2", action: "update" });
    expect(byAction.delete!.object_attributes).toMatchObject({ slug: "Gone", content: "bye", action: "delete" });
  });

  it("group hooks get group wiki pages, from git pushes and from the API, with the group instead of a project", async () => {
    const parent = await group("private");
    const sub = await group("private", parent.g.id);
    const hookPath = `/group-wiki-${parent.g.id}`;
    await jsonBody(await post(`/groups/${parent.g.id}/hooks`, { url: `${r.url}${hookPath}`, wiki_page_events: true }), 201);
    await jsonBody(await post(`/groups/${parent.g.id}/hooks`, { url: `${r.url}${hookPath}-off`, push_events: true, wiki_page_events: false }), 201);
    await jsonBody(await post(`/groups/${sub.g.id}/wikis`, { title: "Api Page", content: "from the API" }, sub.developer.token), 201);
    const work = await clone(wikiUrl(sub.g.full_path, sub.developer));
    const pushed = await commitAndPush(work, { "Api-Page.md": "changed with git" }, "git edit");
    expect(pushed.code, pushed.stderr).toBe(0);
    const got = await waitFor(() => (hooksAt(hookPath).length === 2 ? hooksAt(hookPath) : undefined), { message: "two group wiki page hooks" });
    const web = `${s.url}/groups/${sub.g.full_path}`;
    const groupAttrs = { group_name: expect.any(String), group_path: sub.g.full_path.split("/").pop(), group_id: sub.g.id, full_path: sub.g.full_path };
    const [api, git_] = [
      got.find((q) => (q.json!.object_attributes as { action: string }).action === "create")!,
      got.find((q) => (q.json!.object_attributes as { action: string }).action === "update")!,
    ];
    expect(api.headers["x-service-event"]).toBe("Wiki Page Hook");
    expect(api.json).toMatchObject({
      object_kind: "wiki_page",
      user: { id: sub.developer.id, username: sub.developer.username },
      group: groupAttrs,
      wiki: { web_url: `${web}/-/wikis/home`, git_http_url: `${s.url}/${sub.g.full_path}.wiki.git`, path_with_namespace: `${sub.g.full_path}.wiki` },
      object_attributes: { slug: "Api-Page", content: "from the API", url: `${web}/-/wikis/Api-Page`, action: "create" },
    });
    expect(Object.keys(api.json!).sort()).toEqual(["group", "object_attributes", "object_kind", "user", "wiki"]);
    expect(git_.json).toMatchObject({
      group: groupAttrs,
      object_attributes: { slug: "Api-Page", content: "changed with git", message: "git edit", action: "update" },
    });
    expect(hooksAt(`${hookPath}-off`)).toEqual([]);
  });
});

describe("render_html for AsciiDoc and Org", () => {
  it("renders them to sanitized HTML (gitbeaker and fetch)", async () => {
    const p = await jsonBody(await post("/projects", { name: `wr-${unique()}`, visibility: "private" }), 201);
    await jsonBody(
      await post(`/projects/${p.id}/wikis`, { title: "Adoc", format: "asciidoc", content: "= Guide\n\n== Part One\n\n*bold* <script>x</script>\n" }),
      201,
    );
    await jsonBody(await post(`/projects/${p.id}/wikis`, { title: "Org", format: "org", content: "* Heading\n\n/it/ [[https://example.com][site]]\n" }), 201);
    const adoc = (await s.gitlab(s.rootToken).ProjectWikis.show(p.id, "Adoc", { renderHtml: true })) as { content: string; format: string };
    expect(adoc.format).toBe("asciidoc");
    expect(adoc.content).toContain("<h1>Guide</h1>");
    expect(adoc.content).toContain('<h2 id="user-content-part-one">');
    expect(adoc.content).toContain("<strong>bold</strong>");
    expect(adoc.content).not.toContain("<script");
    const org = await jsonBody(await s.api(`/projects/${p.id}/wikis/Org?render_html=true`), 200);
    expect(org.content).toContain("<h1>Heading</h1>");
    expect(org.content).toContain('<em>it</em> <a href="https://example.com">site</a>');
    // Without render_html the source comes back.
    expect((await jsonBody(await s.api(`/projects/${p.id}/wikis/Org`), 200)).content).toBe("* Heading\n\n/it/ [[https://example.com][site]]\n");
    await jsonBody(await put(`/projects/${p.id}/wikis/Org`, { format: "rdoc" }), 200);
    expect((await jsonBody(await s.api(`/projects/${p.id}/wikis/Org?render_html=true`), 200)).content).toBe(
      "<pre>* Heading\n\n/it/ [[https://example.com][site]]\n</pre>",
    );
  });

  it("hides a Markdown page's YAML front matter from render_html and shows it as front_matter", async () => {
    const p = await jsonBody(await post("/projects", { name: `wf-${unique()}`, visibility: "private" }), 201);
    const content = "---\ntitle: Deploy guide\ntags:\n  - ops\n---\n# Deploying\n";
    const created = await jsonBody(await post(`/projects/${p.id}/wikis`, { title: "Deploy", content }), 201);
    expect(created).toMatchObject({ content, front_matter: { title: "Deploy guide", tags: ["ops"] } });
    const page = (await s.gitlab(s.rootToken).ProjectWikis.show(p.id, "Deploy")) as unknown as { content: string; front_matter: unknown };
    expect(page.content).toBe(content);
    expect(page.front_matter).toEqual({ title: "Deploy guide", tags: ["ops"] });
    const html = await jsonBody(await s.api(`/projects/${p.id}/wikis/Deploy?render_html=true`), 200);
    expect(html.content).toBe("<h1>Deploying</h1>\n");
    expect(html.front_matter).toEqual({ title: "Deploy guide", tags: ["ops"] });
  });
});
