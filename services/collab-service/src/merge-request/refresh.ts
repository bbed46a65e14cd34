// MergeRequests::RefreshService for collab-service: what a push to a branch does to the merge
// requests whose source or target it is.
import { Subjects, type EventBus, type PushEvent, type Subscription } from "@quarry/bus";
import type { Commit__Output as Commit } from "@quarry/proto/types/repo/v1/Commit";
import type { CollabDeps } from "../deps.ts";
import { publishSoon } from "../events/outbox.ts";
import { usernamesOf } from "../system-note/usernames.ts";
import { resolveMergeRequestScope, type MergeRequestScope } from "./access.ts";
import { onSourceBranchPushed } from "./approvals.ts";
import { branchHead, collectDiff, recordDiff, writeHeadRef } from "./diff-version.ts";
import { enqueueMergeRequestEvent, lastCommitHookAttrs, mergeRequestSnapshot, mergeRequestWebPath } from "./event.ts";
import { writeMergeRequestSystemNote } from "./system-notes.ts";

/** The durable consumer of repo-service's pushes (replicas share it). */
export const REFRESH_DURABLE = "collab-service-merge-request-refresh";

const NULL_SHA = "0".repeat(40);
const SYSTEM_ACTOR = { userId: 0, isAdmin: true, system: "collab-service", ipAddress: "" };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * SystemNoteService.add_commits: "added N commits", the new commits as an HTML list
 * (`<short id> - <title>`) and a link comparing with the previous version.
 */
export function addedCommitsBody(commits: readonly Pick<Commit, "shortId" | "id" | "title">[], comparePath: string): string {
  const n = commits.length;
  const list = commits.map((c) => `<li>${c.shortId || c.id.slice(0, 8)} - ${escapeHtml(c.title)}</li>`).join("");
  return [`added ${n} commit${n === 1 ? "" : "s"}`, `<ul>${list}</ul>`, `[Compare with previous version](${comparePath})`].join("\n\n");
}

/**
 * A new head on a merge request's source branch: a new diff version, the head ref, merge status
 * back to unchecked, the "added N commits" note, an automatic merge aborted (as GitLab does when
 * the source changes), approvals (helper E) and the update webhook with `oldrev`. The version is
 * taken at the branch's current head, not the push's: pushes delivered late or twice then find
 * it recorded and change nothing.
 */
async function refreshSource(deps: CollabDeps, scope: MergeRequestScope, mrId: number, push: PushEvent): Promise<void> {
  const mr = await deps.prisma.mergeRequest.findUnique({ where: { id: mrId }, include: { diffs: { orderBy: { id: "desc" }, take: 1 } } });
  if (mr?.state !== "opened") return;
  const previous = mr.diffs[0];
  const [head, targetSha] = await Promise.all([branchHead(deps, scope.project, mr.sourceBranch), branchHead(deps, scope.project, mr.targetBranch)]);
  if (!head || !targetSha || previous?.headCommitSha === head) return;
  const oldrev = previous?.headCommitSha ?? push.before;
  const diff = await collectDiff(deps, scope.project, head, targetSha);
  const known = new Set(previous?.commitShas ?? []);
  const added = diff.commits.filter((c) => !known.has(c.id));
  const actorId = Number(push.user_id) || mr.authorId;
  const [lastCommit, usernames] = await Promise.all([
    lastCommitHookAttrs(deps, scope, head),
    usernamesOf(
      deps,
      (await deps.prisma.mergeRequestAssignee.findMany({ where: { mergeRequestId: mr.id } })).map((a) => a.userId),
    ),
  ]);
  const wrote = await deps.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM merge_requests WHERE id = ${mr.id} FOR UPDATE`;
    const before = await mergeRequestSnapshot(tx, mr.id);
    const latest = await tx.mergeRequestDiff.findFirst({ where: { mergeRequestId: mr.id }, orderBy: { id: "desc" } });
    if (before.mr.state !== "opened" || latest?.headCommitSha === head || latest?.id !== previous?.id) return false;
    const version = await recordDiff(tx, mr.id, diff);
    const now = new Date();
    const abortAutoMerge = before.mr.mergeWhenPipelineSucceeds;
    const updated = await tx.mergeRequest.update({
      where: { id: mr.id },
      data: {
        headSha: diff.headCommitSha,
        mergeStatus: "unchecked",
        mergeError: null,
        updatedAt: now,
        ...(abortAutoMerge ? { mergeWhenPipelineSucceeds: false, autoMergeSha: null, mergeUserId: null } : {}),
      },
    });
    if (added.length) {
      const compare = `${mergeRequestWebPath(scope.parent.fullPath, mr.iid)}?diff_id=${version.id}&start_sha=${oldrev}`;
      await writeMergeRequestSystemNote(tx, updated, actorId, addedCommitsBody(added, compare), now);
    }
    if (abortAutoMerge) await writeMergeRequestSystemNote(tx, updated, actorId, "aborted the automatic merge because source branch was updated", now);
    await onSourceBranchPushed(deps, tx, updated, { scope, actorId, usernames });
    await enqueueMergeRequestEvent(tx, {
      mergeRequestId: mr.id,
      scope,
      action: "update",
      before,
      actorUserId: actorId,
      usernames,
      oldrev,
      lastCommit,
    });
    // Under the row lock, so concurrent refreshes move the ref in order, and before the event goes out.
    await writeHeadRef(deps, scope.project, mr.iid, head);
    return true;
  });
  if (wrote) publishSoon(deps);
}

/**
 * post_merge_manually_merged: an open merge request whose head is now in its target branch (pushed
 * there by hand) is merged, with the commit that brought it in (the merge commit, or the head for
 * a fast-forward).
 */
async function markManuallyMerged(deps: CollabDeps, scope: MergeRequestScope, push: PushEvent, mrIds: number[]): Promise<void> {
  if (push.before === NULL_SHA || !mrIds.length) return;
  const cmp = await deps.repo.CompareRefs({ diskPath: scope.project.diskPath, from: push.before, to: push.after, straight: true, fromDiskPath: "" });
  const pushed = new Map(cmp.commits.map((c) => [c.id, c]));
  for (const id of mrIds) {
    const mr = await deps.prisma.mergeRequest.findUnique({ where: { id } });
    if (mr?.state !== "opened" || !mr.headSha || !pushed.has(mr.headSha)) continue;
    const mergeCommit = cmp.commits.find((c) => c.parentIds.length > 1 && c.parentIds.includes(mr.headSha!));
    const actorId = Number(push.user_id) || mr.authorId;
    const usernames = await usernamesOf(
      deps,
      (await deps.prisma.mergeRequestAssignee.findMany({ where: { mergeRequestId: id } })).map((a) => a.userId),
    );
    await deps.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM merge_requests WHERE id = ${id} FOR UPDATE`;
      const before = await mergeRequestSnapshot(tx, id);
      if (before.mr.state !== "opened") return;
      const now = new Date();
      await tx.mergeRequest.update({
        where: { id },
        data: {
          state: "merged",
          mergedAt: now,
          // MergeRequestMetricsService#merge: the pusher merged it.
          mergeUserId: actorId,
          mergeCommitSha: mergeCommit?.id ?? mr.headSha,
          mergedCommitSha: push.after,
          mergeWhenPipelineSucceeds: false,
          updatedAt: now,
        },
      });
      await tx.resourceStateEvent.create({ data: { mergeRequestId: id, state: "merged", userId: actorId, createdAt: now } });
      await enqueueMergeRequestEvent(tx, { mergeRequestId: id, scope, action: "merge", before, actorUserId: actorId, usernames });
    });
    publishSoon(deps);
  }
}

/**
 * A push to `refs/heads/<branch>`: open merge requests from the branch get a new version; those
 * into it are marked unchecked, or merged when their head arrived there. A deleted source branch
 * leaves its merge requests open, as they are. Idempotent for redelivered pushes.
 */
export async function refreshMergeRequests(deps: CollabDeps, push: PushEvent): Promise<void> {
  if (!push.ref.startsWith("refs/heads/") || push.after === NULL_SHA) return;
  const branch = push.ref.slice("refs/heads/".length);
  const projectId = Number(push.project_id);
  const mrs = await deps.prisma.mergeRequest.findMany({
    where: { projectId, state: "opened", OR: [{ sourceBranch: branch }, { targetBranch: branch }] },
    select: { id: true, sourceBranch: true, targetBranch: true },
    orderBy: { id: "asc" },
  });
  if (!mrs.length) return;
  let scope: MergeRequestScope;
  try {
    scope = await resolveMergeRequestScope(deps, SYSTEM_ACTOR, String(projectId));
  } catch (err) {
    // The project is gone (its deletion event cleans up).
    deps.log.warn({ err, projectId }, "merge request refresh: project not found");
    return;
  }
  const targeting = mrs.filter((m) => m.targetBranch === branch).map((m) => m.id);
  await markManuallyMerged(deps, scope, push, targeting);
  if (targeting.length) {
    await deps.prisma.mergeRequest.updateMany({ where: { id: { in: targeting }, state: "opened" }, data: { mergeStatus: "unchecked" } });
  }
  for (const m of mrs.filter((x) => x.sourceBranch === branch)) await refreshSource(deps, scope, m.id, push);
}

/** Subscribes the refresh to repo-service's pushes (durable, shared by replicas). */
export async function subscribeToPushes(deps: CollabDeps, bus: EventBus): Promise<Subscription[]> {
  return [await bus.subscribe<PushEvent>(Subjects.push, (msg) => refreshMergeRequests(deps, msg.data), { durable: REFRESH_DURABLE })];
}
