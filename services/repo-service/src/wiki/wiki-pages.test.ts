import path from "node:path";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, newProject, outboxPayloads, setUp, type TestContext } from "../../test/support.ts";
import { createWikiAttachment } from "./create-wiki-attachment.ts";
import { createWikiPage } from "./create-wiki-page.ts";
import { deleteWikiPage } from "./delete-wiki-page.ts";
import { ensureWikiRepository } from "./ensure-wiki-repository.ts";
import { getWikiPage } from "./get-wiki-page.ts";
import { listWikiPages } from "./list-wiki-pages.ts";
import { updateWikiPage } from "./update-wiki-page.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("repo_wiki");
});
afterAll(() => t?.close());

const user = { name: "Ada Lovelace", email: "ada@example.com" };
const wikiDirOf = (diskPath: string) => path.join(t.deps.storageRoot, diskPath.replace(/\.git$/, ".wiki.git"));
const create = (diskPath: string, title: string, content: string, format = "") =>
  createWikiPage(t.deps)({ diskPath, user, username: "ada", title, content: Buffer.from(content), format, message: "", projectId: 0, userId: 0, groupId: 0 });
const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => expect.fail("expected an error"),
    (e: { code: number; body: unknown }) => ({ code: e.code, details: JSON.stringify(e.body) }),
  );

describe("wiki pages", () => {
  it("lists nothing for a wiki never written, and creates the repository on the first page", async () => {
    const { diskPath } = newProject();
    expect(await listWikiPages(t.deps)({ diskPath, withContent: true })).toEqual({ pages: [] });
    expect(existsSync(wikiDirOf(diskPath))).toBe(false);
    const page = await create(diskPath, "Hello World", "# Hi");
    expect(page).toMatchObject({ slug: "Hello-World", title: "Hello World", format: "markdown", path: "Hello-World.md" });
    expect(page.content.toString()).toBe("# Hi");
    const dir = wikiDirOf(diskPath);
    expect(gitIn(dir, "symbolic-ref", "HEAD")).toBe("refs/heads/main");
    expect(gitIn(dir, "log", "-1", "--format=%an <%ae>|%s", "main")).toBe("Ada Lovelace <ada@example.com>|ada created page: Hello World");
    expect(gitIn(dir, "show", "main:Hello-World.md")).toBe("# Hi");
  });

  it("names files by format, keeps directories in slugs, lists sorted with or without content", async () => {
    const { diskPath } = newProject();
    await create(diskPath, "b", "bee", "org");
    await create(diskPath, "a/c d", "sea", "asciidoc");
    await create(diskPath, "rd", "= R", "rdoc");
    const plain = await listWikiPages(t.deps)({ diskPath, withContent: false });
    expect(plain.pages.map((p) => [p.slug, p.title, p.format, p.path, p.content.length])).toEqual([
      ["a/c-d", "c d", "asciidoc", "a/c-d.asciidoc", 0],
      ["b", "b", "org", "b.org", 0],
      ["rd", "rd", "rdoc", "rd.rdoc", 0],
    ]);
    const full = await listWikiPages(t.deps)({ diskPath, withContent: true });
    expect(full.pages.map((p) => p.content.toString())).toEqual(["sea", "bee", "= R"]);
    expect((await getWikiPage(t.deps)({ diskPath, slug: "a/c-d", version: "" })).content.toString()).toBe("sea");
  });

  it("refuses a duplicate title, an unknown format and unknown slugs", async () => {
    const { diskPath } = newProject();
    await create(diskPath, "Home", "x");
    expect(await errorOf(create(diskPath, "Home", "y", "org"))).toMatchObject({
      details: JSON.stringify({ message: { base: ["Duplicate page: A page with that title already exists"] } }),
    });
    expect(await errorOf(create(diskPath, "Other", "y", "textile"))).toMatchObject({
      details: JSON.stringify({ error: "format does not have a valid value" }),
    });
    const missing = await errorOf(getWikiPage(t.deps)({ diskPath, slug: "nope", version: "" }));
    expect(missing.details).toBe(JSON.stringify({ message: "404 Wiki Page Not Found" }));
    expect((await errorOf(getWikiPage(t.deps)({ diskPath: newProject().diskPath, slug: "Home", version: "" }))).details).toBe(missing.details);
    expect((await errorOf(getWikiPage(t.deps)({ diskPath, slug: "Home", version: "0123456789abcdef" }))).details).toBe(missing.details);
  });

  it("updates content, moves on a new title or format, reads old versions and deletes", async () => {
    const { diskPath } = newProject();
    const first = await create(diskPath, "dir/Page", "v1");
    const upd = (o: { slug: string; title?: string; content?: string; format?: string }) =>
      updateWikiPage(t.deps)({
        projectId: 0,
        userId: 0,
        groupId: 0,
        diskPath,
        user,
        username: "ada",
        slug: o.slug,
        title: o.title,
        content: o.content === undefined ? undefined : Buffer.from(o.content),
        format: o.format ?? "",
        message: "",
      });
    const second = await upd({ slug: "dir/Page", content: "v2" });
    expect(second).toMatchObject({ slug: "dir/Page", path: "dir/Page.md" });
    expect(second.content.toString()).toBe("v2");
    expect(gitIn(wikiDirOf(diskPath), "log", "-1", "--format=%s", "main")).toBe("ada updated page: Page");
    // A title without a directory stays in the page's directory; the content is kept.
    const moved = await upd({ slug: "dir/Page", title: "New Name", format: "org" });
    expect(moved).toMatchObject({ slug: "dir/New-Name", title: "New Name", format: "org", path: "dir/New-Name.org" });
    expect(moved.content.toString()).toBe("v2");
    const old = await getWikiPage(t.deps)({ diskPath, slug: "dir/Page", version: first.commitId });
    expect(old.content.toString()).toBe("v1");
    expect((await getWikiPage(t.deps)({ diskPath, slug: "dir/Page", version: second.commitId })).content.toString()).toBe("v2");
    await create(diskPath, "Top", "t");
    expect((await errorOf(upd({ slug: "dir/New-Name", title: "/Top" }))).details).toContain("Duplicate page");
    expect(await upd({ slug: "dir/New-Name", title: "/Root" })).toMatchObject({ slug: "Root" });
    expect((await errorOf(upd({ slug: "gone", content: "x" }))).details).toContain("Wiki Page Not Found");
    await deleteWikiPage(t.deps)({ diskPath, user, username: "ada", slug: "Root", projectId: 0, userId: 0, groupId: 0 });
    expect(gitIn(wikiDirOf(diskPath), "log", "-1", "--format=%s", "main")).toBe("ada deleted page: Root");
    expect((await listWikiPages(t.deps)({ diskPath, withContent: false })).pages.map((p) => p.slug)).toEqual(["Top"]);
    expect((await errorOf(deleteWikiPage(t.deps)({ diskPath, user, username: "ada", slug: "Root", projectId: 0, userId: 0, groupId: 0 }))).details).toContain(
      "Wiki Page Not Found",
    );
  });

  it("commits attachments under uploads/<hex>/ on the default or a given branch, not listed as pages", async () => {
    const { diskPath } = newProject();
    await create(diskPath, "Home", "x");
    const a = await createWikiAttachment(t.deps)({ diskPath, user, fileName: "dog.png", content: Buffer.from("PNG"), branch: "" });
    expect(a).toMatchObject({ fileName: "dog.png", branch: "main" });
    expect(a.filePath).toMatch(/^uploads\/[0-9a-f]{32}\/dog\.png$/);
    const dir = wikiDirOf(diskPath);
    expect(gitIn(dir, "show", `main:${a.filePath}`)).toBe("PNG");
    expect(gitIn(dir, "log", "-1", "--format=%s", "main")).toBe("Upload attachment dog.png");
    const b = await createWikiAttachment(t.deps)({ diskPath, user, fileName: "notes.txt", content: Buffer.from("n"), branch: "side" });
    expect(b.branch).toBe("side");
    // A new branch starts at the default branch.
    expect(gitIn(dir, "show", "side:Home.md")).toBe("x");
    expect((await listWikiPages(t.deps)({ diskPath, withContent: false })).pages.map((p) => p.slug)).toEqual(["Home"]);
  });

  it("EnsureWikiRepository makes an empty wiki repository once and names it; bad paths are refused", async () => {
    const { diskPath } = newProject();
    const r = await ensureWikiRepository(t.deps)({ diskPath });
    expect(r.diskPath).toBe(diskPath.replace(/\.git$/, ".wiki.git"));
    expect(gitIn(wikiDirOf(diskPath), "symbolic-ref", "HEAD")).toBe("refs/heads/main");
    await create(diskPath, "Home", "x");
    expect(await ensureWikiRepository(t.deps)({ diskPath })).toEqual(r);
    expect((await listWikiPages(t.deps)({ diskPath, withContent: false })).pages.map((p) => p.slug)).toEqual(["Home"]);
    expect((await errorOf(ensureWikiRepository(t.deps)({ diskPath: "../x.git" }))).code).toBe(3);
  });

  it("publishes GitLab's wiki page hook data for API writes of a project's page", async () => {
    const { diskPath, projectId } = newProject();
    const ids = { projectId, userId: 7, groupId: 0 };
    const page = await createWikiPage(t.deps)({
      diskPath,
      user,
      username: "ada",
      title: "Hook Page",
      content: Buffer.from("c1"),
      format: "",
      message: "",
      ...ids,
    });
    const updated = await updateWikiPage(t.deps)({
      diskPath,
      user,
      username: "ada",
      slug: "Hook-Page",
      content: Buffer.from("c2"),
      format: "",
      message: "why",
      ...ids,
    });
    await deleteWikiPage(t.deps)({ diskPath, user, username: "ada", slug: "Hook-Page", ...ids });
    const deleted = gitIn(wikiDirOf(diskPath), "rev-parse", "main");
    const events = await outboxPayloads(t, projectId);
    expect(events.map((e) => e.subject)).toEqual(["quarry.repo.wiki_page", "quarry.repo.wiki_page", "quarry.repo.wiki_page"]);
    const base = { event_id: expect.any(String), event_name: "wiki_page", object_kind: "wiki_page", user_id: 7, project_id: projectId };
    const attrs = { title: "Hook Page", format: "markdown", slug: "Hook-Page" };
    expect(events.map((e) => e.payload)).toEqual([
      { ...base, object_attributes: { ...attrs, content: "c1", message: "ada created page: Hook Page", action: "create", version_id: page.commitId } },
      { ...base, object_attributes: { ...attrs, content: "c2", message: "why", action: "update", version_id: updated.commitId } },
      { ...base, object_attributes: { ...attrs, content: "c2", message: "ada deleted page: Hook Page", action: "delete", version_id: deleted } },
    ]);
  });

  it("publishes a group wiki's page writes with its group and no project", async () => {
    const { diskPath } = newProject();
    const groupId = 7000 + Math.floor(Math.random() * 1e6);
    const page = await createWikiPage(t.deps)({
      diskPath,
      user,
      username: "ada",
      title: "Group Page",
      content: Buffer.from("g"),
      format: "",
      message: "",
      projectId: 0,
      userId: 5,
      groupId,
    });
    await deleteWikiPage(t.deps)({ diskPath, user, username: "ada", slug: "Group-Page", projectId: 0, userId: 5, groupId });
    const rows = await t.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.repo.wiki_page" }, orderBy: { id: "asc" } });
    const mine = rows.map((r) => r.payload as Record<string, unknown>).filter((p) => p.group_id === groupId);
    expect(mine.map((e) => [e.project_id, e.user_id, (e.object_attributes as { action: string }).action])).toEqual([
      [0, 5, "create"],
      [0, 5, "delete"],
    ]);
    expect((mine[0]!.object_attributes as { version_id: string }).version_id).toBe(page.commitId);
  });
});
