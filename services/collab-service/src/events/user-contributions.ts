// What a deleted user contributed (GitLab's Users::MigrateRecordsToGhostUserService): by default
// it stays, moved to the Ghost User (authors of issues, merge requests, notes and snippets, who
// closed or merged, award emoji, resource events); with hard_delete the user's issues, merge
// requests, notes, snippets and award emoji are deleted instead. Either way the user's
// assignments, review requests, approvals and subscriptions end with them. Idempotent: a
// redelivered event finds nothing of the user left.
import { Subjects, type EventBus, type Subscription, type UserContributionsEvent } from "@quarry/bus";
import type { CollabDeps, Tx } from "../deps.ts";
import { forgetMergeRequests } from "../merge-request/project-destroy.ts";
import { forgetSnippets } from "../snippet/project-destroy.ts";

/** The durable consumer of deleted users' contributions (replicas share it). */
export const USER_CONTRIBUTIONS_DURABLE = "collab-service-user-contributions";

/** Issues with their notes, award emoji (the notes' too) and resource events. */
async function forgetIssues(tx: Tx, issueIds: number[]): Promise<void> {
  if (!issueIds.length) return;
  const noteIds = (await tx.note.findMany({ where: { noteableType: "Issue", noteableId: { in: issueIds } }, select: { id: true } })).map((n) => n.id);
  await tx.awardEmoji.deleteMany({
    where: {
      OR: [
        { awardableType: "Issue", awardableId: { in: issueIds } },
        { awardableType: "Note", awardableId: { in: noteIds } },
      ],
    },
  });
  await tx.note.deleteMany({ where: { id: { in: noteIds } } });
  await tx.resourceLabelEvent.deleteMany({ where: { issueId: { in: issueIds } } });
  await tx.resourceStateEvent.deleteMany({ where: { issueId: { in: issueIds } } });
  await tx.resourceMilestoneEvent.deleteMany({ where: { issueId: { in: issueIds } } });
  await tx.issue.deleteMany({ where: { id: { in: issueIds } } });
}

async function deleteContributions(deps: CollabDeps, userId: number): Promise<void> {
  const snippetIds = (await deps.prisma.snippet.findMany({ where: { authorId: userId }, select: { id: true } })).map((s) => s.id);
  await forgetSnippets(deps, snippetIds);
  await deps.prisma.$transaction(async (tx) => {
    await forgetIssues(
      tx,
      (await tx.issue.findMany({ where: { authorId: userId }, select: { id: true } })).map((i) => i.id),
    );
    const mergeRequestIds = (await tx.mergeRequest.findMany({ where: { authorId: userId }, select: { id: true } })).map((m) => m.id);
    const mrNoteIds = (await tx.note.findMany({ where: { noteableType: "MergeRequest", noteableId: { in: mergeRequestIds } }, select: { id: true } })).map(
      (n) => n.id,
    );
    await tx.awardEmoji.deleteMany({ where: { awardableType: "Note", awardableId: { in: mrNoteIds } } });
    await tx.note.deleteMany({ where: { id: { in: mrNoteIds } } });
    await forgetMergeRequests(tx, mergeRequestIds);
    const noteIds = (await tx.note.findMany({ where: { authorId: userId }, select: { id: true } })).map((n) => n.id);
    await tx.awardEmoji.deleteMany({ where: { awardableType: "Note", awardableId: { in: noteIds } } });
    await tx.note.deleteMany({ where: { id: { in: noteIds } } });
    await tx.awardEmoji.deleteMany({ where: { userId } });
  });
}

/** Moves what remains of the user to the Ghost User, and ends their assignments and subscriptions. */
async function migrateToGhost(tx: Tx, userId: number, ghostId: number): Promise<void> {
  await tx.issue.updateMany({ where: { authorId: userId }, data: { authorId: ghostId } });
  await tx.issue.updateMany({ where: { closedById: userId }, data: { closedById: ghostId } });
  await tx.mergeRequest.updateMany({ where: { authorId: userId }, data: { authorId: ghostId } });
  await tx.mergeRequest.updateMany({ where: { mergeUserId: userId }, data: { mergeUserId: ghostId } });
  await tx.mergeRequest.updateMany({ where: { closedById: userId }, data: { closedById: ghostId } });
  await tx.note.updateMany({ where: { authorId: userId }, data: { authorId: ghostId } });
  await tx.note.updateMany({ where: { updatedById: userId }, data: { updatedById: ghostId } });
  await tx.note.updateMany({ where: { resolvedById: userId }, data: { resolvedById: ghostId } });
  await tx.snippet.updateMany({ where: { authorId: userId }, data: { authorId: ghostId } });
  // An emoji the Ghost User already gave to the same thing stays single (one per user, name and awardable).
  await tx.$executeRaw`
    DELETE FROM award_emoji a WHERE a.user_id = ${userId} AND EXISTS (
      SELECT 1 FROM award_emoji g WHERE g.user_id = ${ghostId} AND g.awardable_type = a.awardable_type AND g.awardable_id = a.awardable_id AND g.name = a.name)`;
  await tx.awardEmoji.updateMany({ where: { userId }, data: { userId: ghostId } });
  await tx.resourceLabelEvent.updateMany({ where: { userId }, data: { userId: ghostId } });
  await tx.resourceStateEvent.updateMany({ where: { userId }, data: { userId: ghostId } });
  await tx.resourceMilestoneEvent.updateMany({ where: { userId }, data: { userId: ghostId } });
}

export async function settleUserContributions(deps: CollabDeps, e: Pick<UserContributionsEvent, "user_id" | "ghost_user_id" | "hard_delete">): Promise<void> {
  const userId = Number(e.user_id);
  const ghostId = Number(e.ghost_user_id);
  if (e.hard_delete) await deleteContributions(deps, userId);
  await deps.prisma.$transaction(async (tx) => {
    // With hard_delete this moves only what is not the user's own: who closed or merged others' work, their resource events.
    await migrateToGhost(tx, userId, ghostId);
    await tx.issueAssignee.deleteMany({ where: { userId } });
    await tx.mergeRequestAssignee.deleteMany({ where: { userId } });
    await tx.mergeRequestReviewer.deleteMany({ where: { userId } });
    await tx.mergeRequestApproval.deleteMany({ where: { userId } });
    await tx.labelSubscription.deleteMany({ where: { userId } });
  });
}

export async function subscribeToUserContributions(deps: CollabDeps, bus: EventBus): Promise<Subscription[]> {
  return [
    await bus.subscribe<UserContributionsEvent>(Subjects.userContributions, (msg) => settleUserContributions(deps, msg.data), {
      durable: USER_CONTRIBUTIONS_DURABLE,
    }),
  ];
}
