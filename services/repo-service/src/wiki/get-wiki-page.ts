import type { GetWikiPageRequest__Output } from "@quarry/proto/types/repo/v1/GetWikiPageRequest";
import type { WikiPage__Output as WikiPage } from "@quarry/proto/types/repo/v1/WikiPage";
import type { RepoDeps } from "../deps.ts";
import { findPage, readCommit, wikiDir } from "./wiki.ts";

/** One page with its content, at `version` (a commit) or the default branch; else 404 Wiki Page Not Found. */
export const getWikiPage =
  (deps: RepoDeps) =>
  async (req: GetWikiPageRequest__Output): Promise<WikiPage> => {
    const { dir } = wikiDir(deps, req.diskPath);
    return findPage(deps, dir, await readCommit(deps, dir, req.version), req.slug);
  };
