import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, send, serveGitHttp } from "../../test/git-http-support.ts";
import { gitIn, makeTreeCommit, newProject, pushContext, setUp, type TestContext } from "../../test/support.ts";
import { createWikiPage } from "./create-wiki-page.ts";
import { ensureWikiRepository } from "./ensure-wiki-repository.ts";
import { parseRawDiff } from "./receive-wiki-push.ts";

let t: TestContext;
let served: Awaited<ReturnType<typeof serveGitHttp>>;
beforeAll(async () => {
  t = await setUp("repo_wiki_push");
  served = await serveGitHttp(t);
});
afterAll(async () => {
  await served?.close();
  await t?.close();
});

const ZERO = "0".repeat(40);
const pkt = (s: string) => (Buffer.byteLength(s) + 4).toString(16).padStart(4, "0") + s;
const user = { name: "Ada Lovelace", email: "ada@example.com" };

/** A bare scratch repository borrowing `dir`'s objects: what it writes is what a client would push. */
function scratchFor(dir: string): string {
  const scratch = fs.mkdtempSync(path.join(t.sandbox, "wiki-client-"));
  execFileSync("git", ["init", "-q", "--bare", scratch]);
  fs.writeFileSync(path.join(scratch, "objects/info/alternates"), `${path.join(dir, "objects")}\n`);
  return scratch;
}

const packOf = (scratch: string, revs: string[]) =>
  execFileSync("git", ["--git-dir", scratch, "pack-objects", "--stdout", "--revs", "--quiet"], { input: `${revs.join("\n")}\n` });

/** Pushes `commands` with the pack to a wiki repository; the status report comes back. */
async function push(first: object, commands: { old: string; new: string; ref: string }[], pack: Buffer) {
  const lines = commands.map((c, i) => pkt(`${c.old} ${c.new} ${c.ref}${i === 0 ? "\0report-status" : ""}\n`));
  const call = served.client.ReceivePack();
  const out = collect(call);
  send(call, first, Buffer.concat([Buffer.from(`${lines.join("")}0000`), pack]));
  const { data, error } = await out;
  expect(error).toBeUndefined();
  return data.toString("utf8");
}

/** The wiki_page outbox rows matching `pick`, oldest first. */
async function wikiEvents(pick: (p: Record<string, unknown>) => boolean) {
  const rows = await t.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.repo.wiki_page" }, orderBy: { id: "asc" } });
  return rows.map((r) => r.payload as Record<string, unknown>).filter(pick);
}

/** A project wiki with pages Home and Old, written through the API without events (project id 0). */
async function seededWiki() {
  const { diskPath, projectId } = newProject();
  for (const [title, content] of [
    ["Home", "home v1"],
    ["Old", "old words"],
  ] as const) {
    await createWikiPage(t.deps)({
      diskPath,
      user,
      username: "ada",
      title,
      content: Buffer.from(content),
      format: "",
      message: "",
      projectId: 0,
      userId: 0,
      groupId: 0,
    });
  }
  const wiki = (await ensureWikiRepository(t.deps)({ diskPath })).diskPath;
  const dir = path.join(t.deps.storageRoot, wiki);
  return { wiki, dir, projectId, head: gitIn(dir, "rev-parse", "main") };
}

describe("git pushes to wikis", () => {
  it("publish one wiki_page event per page added, changed or deleted on the default branch", async () => {
    const w = await seededWiki();
    const scratch = scratchFor(w.dir);
    const a = makeTreeCommit(
      scratch,
      { "Home.md": "home v2", "Old.md": "old words", "guide/New-Page.adoc": "= New", "uploads/abc/x.bin": "bin" },
      { message: "edit home, add a guide\n", parents: [w.head] },
    );
    const b = makeTreeCommit(
      scratch,
      { "Home.md": "home v2", "guide/New-Page.adoc": "= New", "uploads/abc/x.bin": "bin" },
      { message: "remove old\n\nIt is obsolete.\n", parents: [a] },
    );
    const side = makeTreeCommit(scratch, { "Side.md": "s" }, { message: "side\n", parents: [w.head] });
    const report = await push(
      { diskPath: w.wiki, gitProtocol: "", context: pushContext(w.projectId, { userId: 9 }) },
      [
        { old: w.head, new: b, ref: "refs/heads/main" },
        { old: ZERO, new: side, ref: "refs/heads/side" },
      ],
      packOf(scratch, [b, side, `^${w.head}`]),
    );
    expect(report).toContain("ok refs/heads/main");
    expect(gitIn(w.dir, "rev-parse", "main")).toBe(b);
    const events = await wikiEvents((p) => p.project_id === w.projectId);
    const base = { event_id: expect.any(String), event_name: "wiki_page", object_kind: "wiki_page", user_id: 9, project_id: w.projectId };
    // Diff order (by path); the attachment is no page and the other branch sends nothing.
    expect(events).toEqual([
      {
        ...base,
        object_attributes: {
          title: "Home",
          content: "home v2",
          format: "markdown",
          message: "edit home, add a guide",
          slug: "Home",
          action: "update",
          version_id: a,
        },
      },
      {
        ...base,
        object_attributes: {
          title: "Old",
          content: "old words",
          format: "markdown",
          message: "remove old\n\nIt is obsolete.",
          slug: "Old",
          action: "delete",
          version_id: b,
        },
      },
      {
        ...base,
        object_attributes: {
          title: "New Page",
          content: "= New",
          format: "asciidoc",
          message: "edit home, add a guide",
          slug: "guide/New-Page",
          action: "create",
          version_id: a,
        },
      },
    ]);
  });

  it("name the group of a group wiki, start from nothing on a first push, and read renames as updates", async () => {
    const { diskPath } = newProject();
    const wiki = (await ensureWikiRepository(t.deps)({ diskPath })).diskPath;
    const dir = path.join(t.deps.storageRoot, wiki);
    const scratch = scratchFor(dir);
    const first = makeTreeCommit(scratch, { "Home.md": "a fairly long page so that a rename is detected as one\n".repeat(5) }, { message: "first\n" });
    const groupId = 4242 + Math.floor(Math.random() * 1e6);
    const context = pushContext(0, { userId: 3 });
    await push({ diskPath: wiki, gitProtocol: "", context, groupId }, [{ old: ZERO, new: first, ref: "refs/heads/main" }], packOf(scratch, [first]));
    const renamed = makeTreeCommit(
      scratch,
      { "Start.md": "a fairly long page so that a rename is detected as one\n".repeat(5) },
      { message: "rename\n", parents: [first] },
    );
    await push(
      { diskPath: wiki, gitProtocol: "", context, groupId },
      [{ old: first, new: renamed, ref: "refs/heads/main" }],
      packOf(scratch, [renamed, `^${first}`]),
    );
    const events = await wikiEvents((p) => p.group_id === groupId);
    expect(
      events.map((e) => [
        e.project_id,
        e.user_id,
        (e.object_attributes as { action: string; slug: string }).action,
        (e.object_attributes as { slug: string }).slug,
      ]),
    ).toEqual([
      [0, 3, "create", "Home"],
      [0, 3, "update", "Start"],
    ]);
  });

  it("reads git's raw diff records, renames with both paths", () => {
    const raw = [":100644 100644 aaa bbb M", "a.md", ":000000 100644 000 ccc A", "b c.md", ":100644 100644 ddd ddd R100", "old.md", "new.md", ""].join("\0");
    expect(parseRawDiff(raw)).toEqual([
      { status: "M", oldBlob: "aaa", newBlob: "bbb", oldPath: "a.md", newPath: "a.md" },
      { status: "A", oldBlob: "000", newBlob: "ccc", oldPath: "b c.md", newPath: "b c.md" },
      { status: "R", oldBlob: "ddd", newBlob: "ddd", oldPath: "old.md", newPath: "new.md" },
    ]);
  });
});
