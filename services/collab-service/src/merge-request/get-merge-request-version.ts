import { isPositiveInt32 } from "@quarry/gitlab";
import type { GetMergeRequestVersionRequest__Output } from "@quarry/proto/types/collab/v1/GetMergeRequestVersionRequest";
import type { MergeRequestVersion } from "@quarry/proto/types/collab/v1/MergeRequestVersion";
import type { CollabDeps } from "../deps.ts";
import { findVisibleMergeRequest, recordNotFound } from "./access.ts";
import { toVersionMessage } from "./versions.ts";

/** GET …/versions/:version_id: one version of this merge request (`404 Not found` for any other id, as find_by!). */
export const getMergeRequestVersion =
  (deps: CollabDeps) =>
  async (req: GetMergeRequestVersionRequest__Output): Promise<MergeRequestVersion> => {
    const { mr } = await findVisibleMergeRequest(deps, req.actor, req.project, Number(req.mergeRequestIid));
    const id = Number(req.versionId);
    if (!isPositiveInt32(id)) throw recordNotFound();
    const version = await deps.prisma.mergeRequestDiff.findFirst({ where: { id, mergeRequestId: mr.id } });
    if (!version) throw recordNotFound();
    return toVersionMessage(version);
  };
