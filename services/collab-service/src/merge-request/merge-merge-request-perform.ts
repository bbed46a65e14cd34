// MergeRequests::MergeService: the merge itself, shared by the merge API and auto-merge. The git
// work is repo-service's MergeToBranch (merge-tree without a work tree, compare-and-swap on the
// target, push event); the row is "locked" while it runs, so a second merge racing this one finds
// it not open and gets GitLab's 405.
import { failedPrecondition } from "@quarry/grpc";
import type { CollabDeps } from "../deps.ts";
import { enqueueIssueEvent, issueSnapshot } from "../events/issue-event.ts";
import { publishSoon } from "../events/outbox.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { closingIssueIids } from "./closing-issues.ts";
import { mergeCommitMessage, squashCommitMessage, type MessageFacts } from "./merge-messages.ts";
import { pushContextFor, type MergeContext, type StoredPusher } from "./merge-merge-request-context.ts";
import { mergeRequestSnapshot } from "./event.ts";
import { enqueueMergeEvent } from "./merge-merge-request-glue.ts";
import { mergeSettingsOf } from "./merge-status.ts";

/** The merge params GitLab keeps (merge_params), also stored with an auto-merge. */
export interface MergeParams {
  commitMessage?: string;
  squashCommitMessage?: string;
  shouldRemoveSourceBranch?: boolean;
  /** The head the merge was asked for. */
  sha: string;
}

export const METHOD_NOT_ALLOWED = () => failedPrecondition("405 Method Not Allowed", 405);
export const CANNOT_BE_MERGED = () => failedPrecondition("Branch cannot be merged", 422);

/**
 * MergeRequest#closes_issues as a merge closes them: only into the default branch, the closing
 * pattern read in the title, the description and the latest version's commit messages.
 */
async function closingIidsOfMerge(deps: CollabDeps, ctx: MergeContext): Promise<number[]> {
  const { mr, project } = ctx;
  if (mr.targetBranch !== project.defaultBranch) return [];
  const diff = await deps.prisma.mergeRequestDiff.findFirst({ where: { mergeRequestId: mr.id }, orderBy: { id: "desc" } });
  let messages: string[] = [];
  if (diff?.commitShas.length) {
    const cmp = await deps.repo.CompareRefs({ diskPath: project.diskPath, from: diff.baseCommitSha, to: diff.headCommitSha, straight: true, fromDiskPath: "" });
    messages = cmp.commits.map((c) => c.message);
  }
  return closingIssueIids([mr.title, mr.description ?? "", ...messages].join("\n"), project.pathWithNamespace);
}

/** MergeRequest#squash_on_merge?: the project's "always" and "never" win over the merge request's choice. */
export function squashOnMerge(squashOption: string, squash: boolean): boolean {
  if (squashOption === "always") return true;
  if (squashOption === "never") return false;
  return squash;
}

/**
 * MergeRequests::MergeService: locks the row, writes the merge with repo-service (compare-and-swap
 * against `expectedTargetSha` when known), then records it (state, shas, state event, the
 * merge_request "merge" event, closed issues) and removes the source branch when asked.
 * Returns false (with merge_error recorded) when the merge could not be written.
 */
export async function performMerge(
  deps: CollabDeps,
  ctx: MergeContext,
  params: MergeParams,
  pusher: StoredPusher | null,
  expectedTargetSha: string,
): Promise<boolean> {
  const { mr, project, caller } = ctx;
  const settings = mergeSettingsOf(project);
  const headSha = mr.headSha ?? "";
  // Only one merge at a time: the one that flips opened → locked goes on.
  const locked = await deps.prisma.mergeRequest.updateMany({
    where: { id: mr.id, state: "opened", headSha: mr.headSha },
    data: { state: "locked", mergeError: null },
  });
  if (locked.count === 0) throw METHOD_NOT_ALLOWED();

  const facts: MessageFacts = {
    sourceBranch: mr.sourceBranch,
    targetBranch: mr.targetBranch,
    title: mr.title,
    description: mr.description,
    reference: `${project.pathWithNamespace}!${mr.iid}`,
    closingIids: settings.autocloseReferencedIssues ? await closingIidsOfMerge(deps, ctx) : [],
  };
  const context = pushContextFor(project, caller, pusher);
  let written: { mergeCommitSha: string; squashCommitSha: string; targetSha: string };
  try {
    written = await deps.repo.MergeToBranch({
      diskPath: project.diskPath,
      context,
      targetBranch: mr.targetBranch,
      sourceSha: headSha,
      expectedTargetSha,
      mergeMethod: settings.mergeMethod,
      squash: squashOnMerge(settings.squashOption, mr.squash),
      mergeCommitMessage: params.commitMessage ?? mergeCommitMessage(settings.mergeCommitTemplate, facts),
      squashCommitMessage: params.squashCommitMessage ?? squashCommitMessage(settings.squashCommitTemplate, facts),
    });
  } catch (err) {
    // Conflicts, an impossible fast-forward or a target that moved: GitLab records the error,
    // reopens the merge request and asks for a new mergeability check.
    const message = (err as { details?: string }).details || "Failed to merge";
    await deps.prisma.mergeRequest.update({ where: { id: mr.id }, data: { state: "opened", mergeStatus: "unchecked", mergeError: message } });
    deps.log.info({ err, mergeRequestId: mr.id }, "merge request merge failed");
    return false;
  }

  const removeSource = params.shouldRemoveSourceBranch ?? mr.forceRemoveSourceBranch;
  const now = new Date();
  await deps.prisma.$transaction(async (tx) => {
    const data: Prisma.MergeRequestUncheckedUpdateInput = {
      state: "merged",
      mergedAt: now,
      mergeUserId: caller.userId || mr.mergeUserId,
      mergeCommitSha: written.mergeCommitSha || null,
      squashCommitSha: written.squashCommitSha || null,
      mergedCommitSha: written.targetSha || null,
      mergeStatus: "can_be_merged",
      mergeError: null,
      shouldRemoveSourceBranch: params.shouldRemoveSourceBranch ?? null,
      updatedAt: now,
    };
    const before = await mergeRequestSnapshot(tx, mr.id);
    await tx.mergeRequest.update({ where: { id: mr.id }, data });
    await tx.resourceStateEvent.create({ data: { mergeRequestId: mr.id, state: "merged", userId: caller.userId, createdAt: now } });
    await enqueueMergeEvent(deps, tx, ctx, before);
    await closeIssues(tx, ctx, facts.closingIids, now);
  });
  publishSoon(deps);
  ctx.mr = await deps.prisma.mergeRequest.findUniqueOrThrow({ where: { id: mr.id } });

  if (removeSource) await removeSourceBranch(deps, ctx, pusher, headSha);
  return true;
}

/**
 * Issues closed by the merge ("Closes #n", GitLab's MergeRequests::PostMergeService#close_issues):
 * open issues of the project are closed by the merge user with a "closed" state event and the
 * issue webhook, as closing them through the API does.
 */
async function closeIssues(tx: Prisma.TransactionClient, ctx: MergeContext, iids: readonly number[], now: Date): Promise<void> {
  if (!iids.length) return;
  const issues = await tx.issue.findMany({ where: { projectId: ctx.mr.projectId, iid: { in: [...iids] }, state: "opened" } });
  for (const issue of issues) {
    const before = await issueSnapshot(tx, issue.id);
    await tx.issue.update({ where: { id: issue.id }, data: { state: "closed", closedAt: now, closedById: ctx.caller.userId || null, updatedAt: now } });
    await tx.resourceStateEvent.create({ data: { issueId: issue.id, state: "closed", userId: ctx.caller.userId, createdAt: now } });
    await enqueueIssueEvent(tx, { issue, projectPath: ctx.project.pathWithNamespace, action: "close", before, actorUserId: ctx.caller.userId });
  }
}

/**
 * Deletes the merged source branch (GitLab's DeleteSourceBranchWorker) unless it moved since the
 * merge; repo-service refuses protected branches and pushers without the right, which GitLab also
 * ignores silently.
 */
async function removeSourceBranch(deps: CollabDeps, ctx: MergeContext, pusher: StoredPusher | null, mergedSha: string): Promise<void> {
  const { project, mr } = ctx;
  try {
    const branch = await deps.repo.FindBranch({
      diskPath: project.diskPath,
      name: mr.sourceBranch,
      defaultBranch: project.defaultBranch,
      projectId: mr.projectId,
      accessLevel: 0,
    });
    if (branch.commit?.id !== mergedSha || mr.sourceBranch === project.defaultBranch) return;
    await deps.repo.DeleteBranch({
      diskPath: project.diskPath,
      name: mr.sourceBranch,
      context: pushContextFor(project, ctx.caller, pusher),
      protectedPatterns: [],
    });
  } catch (err) {
    deps.log.info({ err, mergeRequestId: mr.id }, "source branch not removed after merge");
  }
}
