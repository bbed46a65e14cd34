import type { ListWikiPagesRequest__Output } from "@quarry/proto/types/repo/v1/ListWikiPagesRequest";
import type { ListWikiPagesResponse__Output as ListWikiPagesResponse } from "@quarry/proto/types/repo/v1/ListWikiPagesResponse";
import type { RepoDeps } from "../deps.ts";
import { pagesAt, readCommit, wikiDir } from "./wiki.ts";

/** The wiki's pages at the default branch (none for a wiki never written), content on request. */
export const listWikiPages =
  (deps: RepoDeps) =>
  async (req: ListWikiPagesRequest__Output): Promise<ListWikiPagesResponse> => {
    const { dir } = wikiDir(deps, req.diskPath);
    const commit = await readCommit(deps, dir, "");
    if (!commit) return { pages: [] };
    const pages = await pagesAt(dir, commit);
    return {
      pages: await Promise.all(
        pages.map(async ({ blobId, ...page }) => ({
          ...page,
          content: req.withContent ? ((await deps.catFile.read(dir, blobId))?.data ?? Buffer.alloc(0)) : Buffer.alloc(0),
        })),
      ),
    };
  };
