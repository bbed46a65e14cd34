import type { Tx } from "../deps.ts";

/**
 * A deleted project's merge requests, in the project deletion's transaction: their emoji and
 * resource events, the rows (assignees, reviewers, labels, versions, approvals and context commits
 * by cascade) and the iid counter. Their notes go with the project's notes. The repository (and
 * its refs/merge-requests/*) is gone with the project.
 */
export async function forgetProjectMergeRequests(tx: Tx, projectId: number): Promise<void> {
  const ids = (await tx.mergeRequest.findMany({ where: { projectId }, select: { id: true } })).map((m) => m.id);
  if (ids.length) {
    await tx.awardEmoji.deleteMany({ where: { awardableType: "MergeRequest", awardableId: { in: ids } } });
    await tx.resourceLabelEvent.deleteMany({ where: { mergeRequestId: { in: ids } } });
    await tx.resourceStateEvent.deleteMany({ where: { mergeRequestId: { in: ids } } });
    await tx.resourceMilestoneEvent.deleteMany({ where: { mergeRequestId: { in: ids } } });
    await tx.mergeRequest.deleteMany({ where: { id: { in: ids } } });
  }
  await tx.mergeRequestIid.deleteMany({ where: { projectId } });
}
