// Merge request approvals beyond the pure rules of approval-state.ts: the approval state message
// the RPCs answer, the committer check, and the reset a push to the source branch causes.
import type { MergeRequestApprovals } from "@quarry/proto/types/collab/v1/MergeRequestApprovals";
import type { CollabDeps, Tx } from "../deps.ts";
import type { MergeRequest } from "../generated/prisma/client.ts";
import { relayRefusals } from "../upstream.ts";
import type { MergeRequestScope } from "./access.ts";
import { toSentence } from "../system-note/bodies.ts";
import { usernamesOf } from "../system-note/usernames.ts";
import { type ApprovableMergeRequest, approvalHookAction, approvalSettingsOf, approvalsLeft, eligibleToApprove, isApproved } from "./approval-state.ts";
import { mergeRequestInclude, type MergeRequestRowFull, toMergeRequestMessages } from "./entity.ts";
import { enqueueMergeRequestEvent, mergeRequestSnapshot } from "./event.ts";
import { writeMergeRequestSystemNote } from "./system-notes.ts";

/** The caller of identity and repo lookups made for no user. */
const SYSTEM_ACTOR = { userId: 0, isAdmin: true, system: "collab-service" };

/** Commits read per page when looking for a committer (repo-service's maximum). */
const COMMITS_PAGE = 100;

export const approvableOf = (row: MergeRequestRowFull): ApprovableMergeRequest => ({
  authorId: row.authorId,
  assigneeIds: row.assignees.map((a) => a.userId),
  state: row.state,
});

/**
 * Whether `userId` committed to the merge request (GitLab's `committers`: the committer e-mails of
 * the latest diff version's commits, merge commits left out), matched on the user's e-mail.
 */
export async function isCommitter(deps: CollabDeps, scope: MergeRequestScope, row: MergeRequestRowFull, userId: number): Promise<boolean> {
  const diff = row.diffs[0];
  if (!diff || userId <= 0) return false;
  const { users } = await relayRefusals(deps.identity.GetUsers({ actor: SYSTEM_ACTOR, ids: [userId] }));
  const email = users[0]?.email.toLowerCase();
  if (!email) return false;
  const range = `${diff.baseCommitSha}..${diff.headCommitSha}`;
  for (let page = 1; ; page++) {
    const { commits, hasMore } = await deps.repo.ListCommits({ diskPath: scope.project.diskPath, refName: range, page, perPage: COMMITS_PAGE });
    if (commits.some((c) => c.commit && c.commit.parentIds.length < 2 && c.commit.committerEmail.toLowerCase() === email)) return true;
    if (!hasMore) return false;
  }
}

/** The approval state of a merge request as `userId` sees it (GET …/approvals, and the approve/unapprove answers). */
export async function mergeRequestApprovalsFor(deps: CollabDeps, scope: MergeRequestScope, mergeRequestId: number): Promise<MergeRequestApprovals> {
  const row = await deps.prisma.mergeRequest.findUniqueOrThrow({ where: { id: mergeRequestId }, include: mergeRequestInclude });
  const [message] = await toMergeRequestMessages(deps, deps.prisma, [row], scope);
  const approvals = await deps.prisma.mergeRequestApproval.findMany({
    where: { mergeRequestId },
    orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
  });
  const settings = approvalSettingsOf(scope.project.mergeSettings);
  const userId = scope.parent.userId;
  const hasApproved = approvals.some((a) => a.userId === userId);
  const userCanApprove = await eligibleToApprove({
    accessLevel: scope.parent.accessLevel,
    userId,
    mr: approvableOf(row),
    settings,
    hasApproved,
    isCommitter: () => isCommitter(deps, scope, row, userId),
  });
  return {
    mergeRequest: message!,
    approvedBy: approvals.map((a) => ({ userId: a.userId, approvedAt: a.createdAt.toISOString() })),
    approvalsRequired: settings.required,
    approvalsLeft: approvalsLeft(approvals.length, settings.required),
    approved: isApproved(approvals.length, settings.required),
    userHasApproved: hasApproved,
    userCanApprove,
  };
}

/** What the push refresh knows about the push: the project, the pusher, the assignees' usernames. */
export interface SourcePush {
  scope: MergeRequestScope;
  /** The pushing user (the system notes' and the hook event's author). */
  actorId: number;
  /** Usernames of the merge request's assignees (the hook event's `ci` block). */
  usernames: ReadonlyMap<number, string>;
}

/** EE's approvals_reset note: "reset approvals from @a and @b by pushing to the branch". */
export const approvalsResetBody = (usernames: readonly string[]): string =>
  `reset approvals from ${toSentence(usernames.map((u) => `@${u}`))} by pushing to the branch`;

/**
 * Called in the transaction that records a push to a merge request's source branch (refresh.ts),
 * after the new diff version is written: where the project resets approvals on push (GitLab's
 * default), the approvals go, except those given for a version whose patch id equals the new
 * one's (GitLab's ResetApprovalsService keeps approvals of an unchanged diff). While diff versions
 * carry no patch id, every push that moves the head resets them. As GitLab does, reviewers who had
 * approved are `unapproved` again, the pusher writes "reset approvals from … by pushing to the
 * branch", and the hook event is `unapproved` (it was approved) or `unapproval`.
 */
export async function onSourceBranchPushed(deps: CollabDeps, tx: Tx, mr: MergeRequest, push: SourcePush): Promise<void> {
  const settings = approvalSettingsOf(push.scope.project.mergeSettings);
  if (!settings.resetOnPush) return;
  const approvals = await tx.mergeRequestApproval.findMany({ where: { mergeRequestId: mr.id }, orderBy: [{ createdAt: "asc" }, { userId: "asc" }] });
  if (!approvals.length) return;
  const latest = await tx.mergeRequestDiff.findFirst({ where: { mergeRequestId: mr.id }, orderBy: { id: "desc" } });
  const stale: number[] = [];
  for (const approval of approvals) {
    if (latest?.patchIdSha && approval.sha) {
      const approvedVersion = await tx.mergeRequestDiff.findFirst({
        where: { mergeRequestId: mr.id, headCommitSha: approval.sha },
        orderBy: { id: "desc" },
      });
      if (approvedVersion?.patchIdSha === latest.patchIdSha) continue;
    }
    stale.push(approval.userId);
  }
  if (!stale.length) return;
  const before = await mergeRequestSnapshot(tx, mr.id);
  await tx.mergeRequestApproval.deleteMany({ where: { mergeRequestId: mr.id, userId: { in: stale } } });
  await tx.mergeRequestReviewer.updateMany({ where: { mergeRequestId: mr.id, userId: { in: stale }, state: "approved" }, data: { state: "unapproved" } });
  const names = await usernamesOf(deps, stale);
  await writeMergeRequestSystemNote(tx, mr, push.actorId, approvalsResetBody(stale.map((id) => names.get(id) ?? `user${id}`)));
  const action = approvalHookAction("unapprove", isApproved(approvals.length, settings.required), false);
  await enqueueMergeRequestEvent(tx, { mergeRequestId: mr.id, scope: push.scope, action, before, actorUserId: push.actorId, usernames: push.usernames });
}
