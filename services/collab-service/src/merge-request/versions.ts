import type { MergeRequestVersion } from "@quarry/proto/types/collab/v1/MergeRequestVersion";
import type { MergeRequestDiff } from "../generated/prisma/client.ts";

/** A stored diff version as its message. */
export function toVersionMessage(d: MergeRequestDiff): MergeRequestVersion {
  return {
    id: d.id,
    mergeRequestId: d.mergeRequestId,
    headCommitSha: d.headCommitSha,
    baseCommitSha: d.baseCommitSha,
    startCommitSha: d.startCommitSha,
    createdAt: d.createdAt.toISOString(),
    state: d.state,
    realSize: d.realSize ?? "",
    patchIdSha: d.patchIdSha ?? "",
    commitShas: d.commitShas,
  };
}
