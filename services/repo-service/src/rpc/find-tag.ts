import { notFound } from "@quarry/grpc";
import type { FindTagRequest__Output } from "@quarry/proto/types/repo/v1/FindTagRequest";
import type { Tag__Output as Tag } from "@quarry/proto/types/repo/v1/Tag";
import type { RepoDeps } from "../deps.ts";
import { isRepository } from "../git/git.ts";
import { readTag } from "../refs/tags.ts";

/** One tag by its exact name; `404 Tag Not Found` otherwise. */
export const findTag =
  (deps: RepoDeps) =>
  async (req: FindTagRequest__Output): Promise<Tag> => {
    const dir = deps.storages.resolve(req.diskPath);
    if (!(await isRepository(dir))) throw notFound("Repository");
    const found = await readTag(dir, req.name);
    if (!found) throw notFound("Tag");
    return found.tag;
  };
