import path from "node:path";
import type { UpdateWikiPageRequest__Output } from "@quarry/proto/types/repo/v1/UpdateWikiPageRequest";
import type { WikiPage__Output as WikiPage } from "@quarry/proto/types/repo/v1/WikiPage";
import type { RepoDeps } from "../deps.ts";
import {
  action,
  commitWiki,
  duplicatePage,
  publishWikiPage,
  FORMAT_EXTENSIONS,
  findPage,
  pagesAt,
  readCommit,
  sluggify,
  validFormat,
  placedWikiDir,
  wikiUser,
} from "./wiki.ts";

/**
 * WikiPage#update: new content, title or format in one commit. A title without a directory
 * stays in the page's directory, one starting with "/" (or naming a directory) is a full path
 * (WikiPage#process_title); a new title or format moves the file, refused when another page has
 * that slug. The commit message defaults to "<username> updated page: <title>".
 */
export const updateWikiPage =
  (deps: RepoDeps) =>
  async (req: UpdateWikiPageRequest__Output): Promise<WikiPage> => {
    const { dir } = await placedWikiDir(deps, req.diskPath);
    const user = wikiUser(req.user);
    const head = await readCommit(deps, dir, "");
    const page = await findPage(deps, dir, head, req.slug);
    const format = req.format ? validFormat(req.format) : page.format;
    const title = req.title?.trim() ? req.title.trim() : undefined;
    let slug = page.slug;
    if (title) {
      const dir = path.posix.dirname(page.slug);
      slug = sluggify(title.includes("/") || dir === "." ? title : `${dir}/${title}`);
    }
    if (slug !== page.slug && (await pagesAt(dir, head)).some((p) => p.slug === slug)) throw duplicatePage();
    const filePath = slug === page.slug && format === page.format ? page.path : `${slug}.${FORMAT_EXTENSIONS[format]}`;
    const content = Buffer.from(req.content ?? page.content);
    const message = req.message || `${req.username} updated page: ${title ?? page.title}`;
    const commit = await commitWiki(deps, dir, {
      user,
      base: head,
      message,
      actions: [
        filePath === page.path ? action({ action: "update", filePath, content }) : action({ action: "move", filePath, previousPath: page.path, content }),
      ],
    });
    const updated = await findPage(deps, dir, commit, slug);
    const attributes = { title: updated.title, content: content.toString(), format, message, slug, action: "update" as const };
    await publishWikiPage(deps, { projectId: Number(req.projectId), groupId: Number(req.groupId), userId: Number(req.userId), attributes }, commit);
    return updated;
  };
