import { TAG_REF_PREFIX } from "@quarry/gitlab";
import { notFound, paramError } from "@quarry/grpc";
import type { DeleteTagRequest__Output } from "@quarry/proto/types/repo/v1/DeleteTagRequest";
import type { DeleteTagResponse } from "@quarry/proto/types/repo/v1/DeleteTagResponse";
import type { RepoDeps } from "../deps.ts";
import { requireContext } from "../refs/branches.ts";
import { isRepository, NULL_SHA } from "../git/git.ts";
import { changeRefWithEvent, RefUpdateError } from "../events/ref-change.ts";
import { readTag } from "../refs/tags.ts";

/** Attempts when the tag moves between reading it and the compare-and-swap. */
const ATTEMPTS = 3;

/**
 * Deletes a tag (compare-and-swap against the target just read) and records its tag_push event
 * (after = null sha, no checkout sha, no commits). `404 Tag Not Found` when there is none.
 */
export const deleteTag =
  (deps: RepoDeps) =>
  async (req: DeleteTagRequest__Output): Promise<DeleteTagResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    if (!req.name) throw paramError("tag_name is missing");
    const context = requireContext(req.context);
    if (!(await isRepository(dir))) throw notFound("Repository");
    for (let attempt = 1; ; attempt++) {
      const found = await readTag(dir, req.name);
      if (!found) throw notFound("Tag");
      try {
        await changeRefWithEvent(
          deps,
          dir,
          { ref: TAG_REF_PREFIX + req.name, oldSha: found.tag.target, newSha: NULL_SHA },
          { context, checkoutSha: null, commits: [], refProtected: false }, // no protected tags yet
        );
        return {};
      } catch (err) {
        if (!(err instanceof RefUpdateError) || attempt >= ATTEMPTS) throw err;
      }
    }
  };
