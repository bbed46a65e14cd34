import { notFound } from "@quarry/grpc";
import type { FindTagRequest__Output } from "@quarry/proto/types/repo/v1/FindTagRequest";
import type { Tag__Output as Tag } from "@quarry/proto/types/repo/v1/Tag";
import type { RepoDeps } from "../deps.ts";
import { isPlausibleBranchName, isRepository } from "../git/git.ts";
import { cachedTag } from "../refs/ref-cache.ts";

/** One tag by its exact name (from the tags kept with the refs in memory); `404 Tag Not Found` otherwise. */
export const findTag =
  (deps: RepoDeps) =>
  async (req: FindTagRequest__Output): Promise<Tag> => {
    const dir = deps.storages.resolve(req.diskPath);
    if (!(await isRepository(dir))) throw notFound("Repository");
    const found = isPlausibleBranchName(req.name) ? await cachedTag(dir, req.name) : null;
    if (!found) throw notFound("Tag");
    return found.tag;
  };
