import { paramError } from "@quarry/grpc";
import type { CreateWikiPageRequest__Output } from "@quarry/proto/types/repo/v1/CreateWikiPageRequest";
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
 * Wiki#create_page: the file `<sluggified title>.<format's extension>` in one commit on the
 * default branch (the repository is made on first write); a page with the same slug in any
 * format is a duplicate. The commit message defaults to "<username> created page: <title>".
 */
export const createWikiPage =
  (deps: RepoDeps) =>
  async (req: CreateWikiPageRequest__Output): Promise<WikiPage> => {
    const { dir } = await placedWikiDir(deps, req.diskPath);
    const user = wikiUser(req.user);
    const format = validFormat(req.format);
    const slug = sluggify(req.title);
    if (!slug) throw paramError("title is empty");
    const head = await readCommit(deps, dir, "");
    if ((await pagesAt(dir, head)).some((p) => p.slug === slug)) throw duplicatePage();
    const filePath = `${slug}.${FORMAT_EXTENSIONS[format]}`;
    const message = req.message || `${req.username} created page: ${req.title}`;
    const commit = await commitWiki(deps, dir, {
      user,
      base: head,
      message,
      actions: [action({ action: "create", filePath, content: Buffer.from(req.content) })],
    });
    const page = await findPage(deps, dir, commit, slug);
    const attributes = { title: page.title, content: req.content.toString(), format, message, slug, action: "create" as const };
    await publishWikiPage(deps, { projectId: Number(req.projectId), groupId: Number(req.groupId), userId: Number(req.userId), attributes }, commit);
    return page;
  };
