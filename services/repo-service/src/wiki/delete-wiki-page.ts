import type { DeleteWikiPageRequest__Output } from "@quarry/proto/types/repo/v1/DeleteWikiPageRequest";
import type { DeleteWikiPageResponse__Output as DeleteWikiPageResponse } from "@quarry/proto/types/repo/v1/DeleteWikiPageResponse";
import type { RepoDeps } from "../deps.ts";
import { action, commitWiki, publishWikiPage, findPage, readCommit, placedWikiDir, wikiUser } from "./wiki.ts";

/** Wiki#delete_page: removes the page's file in one commit ("<username> deleted page: <title>"). */
export const deleteWikiPage =
  (deps: RepoDeps) =>
  async (req: DeleteWikiPageRequest__Output): Promise<DeleteWikiPageResponse> => {
    const { dir } = await placedWikiDir(deps, req.diskPath);
    const user = wikiUser(req.user);
    const head = await readCommit(deps, dir, "");
    const page = await findPage(deps, dir, head, req.slug);
    const message = `${req.username} deleted page: ${page.title}`;
    const commit = await commitWiki(deps, dir, {
      user,
      base: head,
      message,
      actions: [action({ action: "delete", filePath: page.path })],
    });
    const attributes = {
      title: page.title,
      content: Buffer.from(page.content).toString(),
      format: page.format,
      message,
      slug: page.slug,
      action: "delete" as const,
    };
    await publishWikiPage(deps, { projectId: Number(req.projectId), groupId: Number(req.groupId), userId: Number(req.userId), attributes }, commit);
    return {};
  };
