import type { Tx } from "../deps.ts";

/**
 * A deleted project's merge requests, in the project deletion's transaction: their emoji and
 * resource events, the rows (assignees, reviewers, labels, versions, approvals and context commits
 * by cascade) and the iid counter. Their notes go with the project's notes. The repository (and
 * its refs/merge-requests/*) is gone with the project.
 */
export async function forgetProjectMergeRequests(tx: Tx, projectId: number): Promise<void> {
  await forgetMergeRequests(
    tx,
    (await tx.mergeRequest.findMany({ where: { projectId }, select: { id: true } })).map((m) => m.id),
  );
  await tx.mergeRequestIid.deleteMany({ where: { projectId } });
}

/**
 * Merge requests by id: their emoji and resource events, the rows (assignees, reviewers, labels,
 * versions, approvals and context commits by cascade). Their notes are the caller's to remove.
 */
export async function forgetMergeRequests(tx: Tx, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await tx.awardEmoji.deleteMany({ where: { awardableType: "MergeRequest", awardableId: { in: ids } } });
  await tx.resourceLabelEvent.deleteMany({ where: { mergeRequestId: { in: ids } } });
  await tx.resourceStateEvent.deleteMany({ where: { mergeRequestId: { in: ids } } });
  await tx.resourceMilestoneEvent.deleteMany({ where: { mergeRequestId: { in: ids } } });
  await tx.mergeRequest.deleteMany({ where: { id: { in: ids } } });
}
