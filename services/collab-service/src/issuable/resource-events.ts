// Resource events of issues and merge requests (GitLab's ResourceLabelEvent and
// ResourceMilestoneEvent), written in the transaction of the change they record.
import type { Tx } from "../deps.ts";

/** Whose event it is: an issue's or a merge request's. */
export type EventOwner = { issueId: number } | { mergeRequestId: number };

/** Writes ResourceLabelEvents for labels added and removed by one change. */
export async function writeLabelEvents(
  tx: Tx,
  owner: EventOwner,
  userId: number,
  added: readonly number[],
  removed: readonly number[],
  at: Date,
): Promise<void> {
  const rows = [
    ...added.map((labelId) => ({ ...owner, labelId, action: "add", userId, createdAt: at })),
    ...removed.map((labelId) => ({ ...owner, labelId, action: "remove", userId, createdAt: at })),
  ];
  if (rows.length) await tx.resourceLabelEvent.createMany({ data: rows });
}

/**
 * Writes the ResourceMilestoneEvent of a milestone change from `from` to `to` (ids, null = none):
 * "add" naming the new one, or, when it is removed, "remove" naming the old one (as GitLab
 * records it). `state` is the issuable's state at the time.
 */
export async function writeMilestoneEvent(
  tx: Tx,
  owner: EventOwner,
  change: { from: number | null; to: number | null },
  state: string,
  userId: number,
  at: Date,
): Promise<void> {
  const data =
    change.to !== null
      ? { ...owner, milestoneId: change.to, action: "add", state, userId, createdAt: at }
      : { ...owner, milestoneId: change.from, action: "remove", state, userId, createdAt: at };
  await tx.resourceMilestoneEvent.create({ data });
}
