// Project wikis (GitLab's ProjectWiki): a bare repository beside the project's, pages are files
// `<slug>.<extension>` whose extension names the markup (Wiki::MARKUPS).
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { enqueueEvent, Subjects, type WikiPageEvent } from "@quarry/bus";
import { BRANCH_REF_PREFIX, branchRef } from "@quarry/gitlab";
import { badRequest, notFound, paramError } from "@quarry/grpc";
import type { CommitFileAction__Output as FileAction } from "@quarry/proto/types/repo/v1/CommitFileAction";
import type { Identity__Output as Identity } from "@quarry/proto/types/repo/v1/Identity";
import type { WikiPage__Output as WikiPage } from "@quarry/proto/types/repo/v1/WikiPage";
import type { RepoDeps } from "../deps.ts";
import { git, GitError, isRepository, NULL_SHA, pathExists } from "../git/git.ts";
import { refsChanged } from "../git/ref-writes.ts";
import { resolveRef } from "../git/files.ts";
import { ObjectBatch } from "../git/loose-objects.ts";
import { TreeEdit } from "../git/tree-edit.ts";
import { branchHead } from "../refs/branches.ts";
import { commitObject } from "../writes/commit-writer.ts";
import { actionPaths, applyActions, withBlobs } from "../writes/file-actions.ts";
import { snippetFiles } from "../writes/snippets.ts";

/** A wiki's default branch (Wiki#default_branch: the instance default, "main"). */
export const WIKI_BRANCH = "main";

/** Each format's default extension (Wiki::MARKUPS default_extension). */
export const FORMAT_EXTENSIONS: Readonly<Record<string, string>> = { markdown: "md", rdoc: "rdoc", asciidoc: "asciidoc", org: "org" };

/** Extension → format (Wiki::MARKUPS extension_regex). */
const EXTENSION_FORMATS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(["md", "markdown", "mdown", "mkdn", "mkd", "mdwn", "mdtxt", "mdtext", "text", "txt"].map((e) => [e, "markdown"])),
  rdoc: "rdoc",
  ...Object.fromEntries(["adoc", "ad", "asciidoc"].map((e) => [e, "asciidoc"])),
  org: "org",
};

/** The wiki repository of a project: `<project disk path without .git>.wiki.git` (Storage::Hashed). */
export function wikiDir(deps: RepoDeps, projectDiskPath: string): { diskPath: string; dir: string } {
  deps.storages.resolve(projectDiskPath);
  const diskPath = projectDiskPath.replace(/\.git$/, ".wiki.git");
  return { diskPath, dir: deps.storages.resolve(diskPath) };
}

/**
 * As wikiDir, for a write: a group wiki (`@groups/…`, no project row to follow) is first placed
 * on a storage chosen by weight; a project's wiki lives where its project does.
 */
export async function placedWikiDir(deps: RepoDeps, baseDiskPath: string): Promise<{ diskPath: string; dir: string }> {
  wikiDir(deps, baseDiskPath); // checks the path before anything is recorded
  if (baseDiskPath.startsWith("@groups/")) await deps.storages.place(baseDiskPath, "group_wiki", 0);
  return wikiDir(deps, baseDiskPath);
}

export const pageNotFound = () => notFound("Wiki Page");

/** A format name as given (empty = markdown); anything else is Grape's values error. */
export function validFormat(format: string): string {
  const f = format || "markdown";
  if (!FORMAT_EXTENSIONS[f]) throw paramError("format does not have a valid value");
  return f;
}

/** The page a repository path stands for, or null for files that are no pages (attachments, …). */
export function pageOfPath(filePath: string): Pick<WikiPage, "slug" | "title" | "format" | "path"> | null {
  const m = /^(.*[^/])\.([^./]+)$/.exec(filePath);
  const format = m && EXTENSION_FORMATS[m[2]!.toLowerCase()];
  if (!m || !format) return null;
  const slug = m[1]!;
  return { slug, title: pageTitle(slug), format, path: filePath };
}

/** Wiki#canonicalize_filename: the base name, "-" read as a space. */
export function pageTitle(slug: string): string {
  return path.posix.basename(slug).replaceAll("-", " ");
}

/** Wiki.sluggified_title: spaces become "-"; leading and doubled slashes go (a title names a path). */
export function sluggify(title: string): string {
  return title
    .trim()
    .replaceAll(" ", "-")
    .split("/")
    .filter((s) => s && s !== "." && s !== "..")
    .join("/");
}

/** The commit a read sees: `version` (a commit) or the default branch's head; "" for an empty wiki. */
export async function readCommit(deps: RepoDeps, dir: string, version: string): Promise<string> {
  if (!(await isRepository(dir))) {
    if (version) throw pageNotFound();
    return "";
  }
  if (version) {
    if (!/^[0-9a-f]{4,64}$/i.test(version)) throw pageNotFound();
    const commit = await resolveRef(deps, dir, version).catch(() => "");
    if (!commit) throw pageNotFound();
    return commit;
  }
  return branchHead(dir, WIKI_BRANCH);
}

/** The wiki's pages at a commit, sorted by slug (files of other types are skipped). */
export async function pagesAt(dir: string, commit: string): Promise<(WikiPage & { blobId: string })[]> {
  const files = await snippetFiles(dir, commit);
  return files
    .flatMap((f) => {
      const page = pageOfPath(f.path);
      return page ? [{ ...page, content: Buffer.alloc(0), commitId: commit, blobId: f.blobId }] : [];
    })
    .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
}

/** The page with `slug` at a commit (the first by extension order when several formats exist), with content. */
export async function findPage(deps: RepoDeps, dir: string, commit: string, slug: string): Promise<WikiPage> {
  if (!commit || !slug) throw pageNotFound();
  const page = (await pagesAt(dir, commit)).find((p) => p.slug === slug);
  if (!page) throw pageNotFound();
  const blob = await deps.catFile.read(dir, page.blobId);
  const { blobId: _, ...rest } = page;
  return { ...rest, content: blob?.data ?? Buffer.alloc(0) };
}

/** Creates the wiki's bare repository (HEAD → main) on first write, as ProjectWiki#create_wiki_repository. */
export async function ensureWikiRepository(dir: string): Promise<void> {
  if (await isRepository(dir)) return;
  if (await pathExists(dir)) throw new Error(`${dir} exists but is no repository`);
  await mkdir(path.dirname(dir), { recursive: true });
  const tmp = `${dir}+${randomBytes(6).toString("hex")}.creating`;
  try {
    await git(["init", "--bare", "--quiet", tmp]);
    await git(["symbolic-ref", "HEAD", branchRef(WIKI_BRANCH)], { gitDir: tmp });
    await rename(tmp, dir).catch(async (err: NodeJS.ErrnoException) => {
      // Another call made it first.
      if (!["ENOTEMPTY", "EEXIST"].includes(err.code ?? "") || !(await isRepository(dir))) throw err;
    });
    refsChanged(dir); // a new repository at this path
  } finally {
    await rm(tmp, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** The acting user, required for every write. */
export function wikiUser(user: Identity | null | undefined): { name: string; email: string } {
  if (!user?.name.trim()) throw paramError("user is missing");
  return { name: user.name, email: user.email };
}

/**
 * One commit of file actions on `branch` of the wiki, moved with a compare-and-swap against the
 * head read: a concurrent writer loses with GitLab's wiki commit error and nothing is half-written.
 * Answers the new commit.
 */
export async function commitWiki(
  deps: RepoDeps,
  dir: string,
  o: { user: { name: string; email: string }; message: string; actions: FileAction[]; branch?: string; base?: string },
): Promise<string> {
  await ensureWikiRepository(dir);
  const branch = o.branch || WIKI_BRANCH;
  const head = await branchHead(dir, branch);
  if (o.base !== undefined && o.base !== head) throw badRequest({ base: ["Wiki was changed in the meantime, please try again"] });
  // A new branch starts at the default branch (the commit's start branch).
  const parent = head || (branch === WIKI_BRANCH ? "" : await branchHead(dir, WIKI_BRANCH));
  const edit = await TreeEdit.load(deps.catFile, dir, parent, actionPaths(o.actions));
  applyActions(edit, o.actions);
  const batch = await ObjectBatch.for(dir);
  withBlobs(batch, edit, o.actions);
  const tree = edit.write(batch);
  const commit = commitObject(batch, { tree, parents: parent ? [parent] : [], message: o.message, author: o.user, committer: o.user });
  await batch.write(dir);
  try {
    await deps.gitSessions.updateRef(dir, BRANCH_REF_PREFIX + branch, commit.id, head || NULL_SHA);
  } catch (err) {
    if (err instanceof GitError) throw badRequest({ base: ["Wiki was changed in the meantime, please try again"] });
    throw err;
  }
  return commit.id;
}

/** Wiki#create_page's refusal of a second page with the same slug (any format). */
export const duplicatePage = () => badRequest({ base: ["Duplicate page: A page with that title already exists"] });

/**
 * What a page write publishes (GitLab's wiki page hook data): a project wiki's names its project,
 * a group wiki's its group (projectId 0); neither publishes nothing.
 */
export interface WikiPageChange {
  projectId: number;
  groupId?: number;
  userId: number;
  attributes: Omit<WikiPageEvent["object_attributes"], "version_id">;
}

/** The event of one page change (the commit that wrote it as version_id); null when the wiki has no owner to notify. */
export function wikiPageEvent(change: WikiPageChange, commitId: string): Omit<WikiPageEvent, "event_id"> | null {
  if (!change.projectId && !change.groupId) return null;
  return {
    event_name: "wiki_page",
    object_kind: "wiki_page",
    user_id: change.userId,
    project_id: change.projectId,
    ...(change.projectId ? {} : { group_id: change.groupId }),
    object_attributes: { ...change.attributes, version_id: commitId },
  };
}

/** Publishes page changes as `quarry.repo.wiki_page` events through the outbox (one transaction). */
export async function publishWikiPages(deps: RepoDeps, events: Omit<WikiPageEvent, "event_id">[]): Promise<void> {
  if (!events.length) return;
  await deps.prisma.$transaction(async (tx) => {
    for (const event of events) await enqueueEvent(tx, Subjects.wikiPage, event as unknown as Record<string, unknown>);
  });
  deps.outbox.kick();
}

/** Publishes a page write as a `quarry.repo.wiki_page` event through the outbox. */
export async function publishWikiPage(deps: RepoDeps, change: WikiPageChange, commitId: string): Promise<void> {
  const event = wikiPageEvent(change, commitId);
  if (event) await publishWikiPages(deps, [event]);
}

/** A commit-file action with GitLab's defaults for the fields wikis do not use. */
export function action(a: Pick<FileAction, "action" | "filePath"> & Partial<FileAction>): FileAction {
  return { previousPath: "", lastCommitId: "", content: undefined, executeFilemode: undefined, ...a } as FileAction;
}
