import type { DeleteWikiPageRequest__Output } from "@quarry/proto/types/repo/v1/DeleteWikiPageRequest";
import type { DeleteWikiPageResponse__Output as DeleteWikiPageResponse } from "@quarry/proto/types/repo/v1/DeleteWikiPageResponse";
import type { RepoDeps } from "../deps.ts";
import { action, commitWiki, findPage, readCommit, wikiDir, wikiUser } from "./wiki.ts";

/** Wiki#delete_page: removes the page's file in one commit ("<username> deleted page: <title>"). */
export const deleteWikiPage =
  (deps: RepoDeps) =>
  async (req: DeleteWikiPageRequest__Output): Promise<DeleteWikiPageResponse> => {
    const { dir } = wikiDir(deps, req.diskPath);
    const user = wikiUser(req.user);
    const head = await readCommit(deps, dir, "");
    const page = await findPage(deps, dir, head, req.slug);
    await commitWiki(deps, dir, {
      user,
      base: head,
      message: `${req.username} deleted page: ${page.title}`,
      actions: [action({ action: "delete", filePath: page.path })],
    });
    return {};
  };
