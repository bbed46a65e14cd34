import type { MergeRequest } from "@quarry/proto/types/collab/v1/MergeRequest";
import type { Milestone } from "@quarry/proto/types/collab/v1/Milestone";
import type { CollabDeps, PrismaClient, Tx } from "../deps.ts";
import type {
  Label as LabelRow,
  MergeRequest as MergeRequestRow,
  MergeRequestDiff as MergeRequestDiffRow,
  Milestone as MilestoneRow,
  Prisma,
} from "../generated/prisma/client.ts";
import { plainLabel } from "../issue/entity.ts";
import { toMilestoneMessages } from "../milestone/entity.ts";
import type { MergeRequestScope } from "./scope.ts";
import { listMergeStatuses, mergeStatusFor, type MergeStatus } from "./merge-status.ts";

/**
 * What a merge request message is built from: the row with its assignees and reviewers (in the
 * order they were added), labels, milestone and latest diff version.
 */
export const mergeRequestInclude = {
  assignees: { orderBy: [{ createdAt: "asc" }, { userId: "asc" }] },
  reviewers: { orderBy: [{ createdAt: "asc" }, { userId: "asc" }] },
  labels: { include: { label: true } },
  milestone: true,
  diffs: { orderBy: { id: "desc" }, take: 1 },
} satisfies Prisma.MergeRequestInclude;

export type MergeRequestRowFull = MergeRequestRow & {
  assignees: { userId: number }[];
  reviewers: { userId: number; state: string }[];
  labels: { label: LabelRow }[];
  milestone: MilestoneRow | null;
  /** The latest diff version only (empty until one is recorded). */
  diffs: MergeRequestDiffRow[];
};

/** What a row's message needs beyond the row: counts, the milestone message, mergeability. */
export interface MergeRequestExtras {
  projectPath: string;
  userNotesCount: number;
  upvotes: number;
  downvotes: number;
  milestone?: Milestone;
  firstContribution: boolean;
  status: MergeStatus;
  /** Filled only when asked (include_diverged_commits_count). */
  divergedCommitsCount?: number;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : undefined);

/** One row as the proto MergeRequest (pure: the extras carry everything that needs a query). */
export function toMergeRequestProto(row: MergeRequestRowFull, extras: MergeRequestExtras): MergeRequest {
  const diff = row.diffs[0];
  return {
    id: row.id,
    iid: row.iid,
    projectId: row.projectId,
    projectPath: extras.projectPath,
    title: row.title,
    description: row.description ?? undefined,
    state: row.state,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    mergedAt: iso(row.mergedAt),
    closedAt: iso(row.closedAt),
    closedById: row.closedById ?? 0,
    mergeUserId: row.mergeUserId ?? 0,
    authorId: row.authorId,
    assigneeIds: row.assignees.map((a) => a.userId),
    reviewerIds: row.reviewers.map((r) => r.userId),
    labels: row.labels
      .map((l) => l.label)
      .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0))
      .map(plainLabel),
    milestone: extras.milestone,
    sourceBranch: row.sourceBranch,
    targetBranch: row.targetBranch,
    sourceProjectId: row.sourceProjectId,
    targetProjectId: row.projectId,
    draft: row.draft,
    discussionLocked: row.discussionLocked ?? undefined,
    squash: row.squash,
    forceRemoveSourceBranch: row.forceRemoveSourceBranch,
    shouldRemoveSourceBranch: row.shouldRemoveSourceBranch ?? undefined,
    allowCollaboration: row.allowCollaboration,
    mergeStatus: extras.status.mergeStatus,
    detailedMergeStatus: extras.status.detailedMergeStatus,
    hasConflicts: extras.status.hasConflicts,
    sha: row.headSha ?? undefined,
    mergeCommitSha: row.mergeCommitSha ?? undefined,
    squashCommitSha: row.squashCommitSha ?? undefined,
    mergeWhenPipelineSucceeds: row.mergeWhenPipelineSucceeds,
    mergeError: row.mergeError ?? undefined,
    preparedAt: iso(row.preparedAt),
    mergeAfter: iso(row.mergeAfter),
    timeEstimate: row.timeEstimate,
    totalTimeSpent: row.totalTimeSpent,
    userNotesCount: extras.userNotesCount,
    upvotes: extras.upvotes,
    downvotes: extras.downvotes,
    diffRefs: diff ? { baseSha: diff.baseCommitSha, headSha: diff.headCommitSha, startSha: diff.startCommitSha } : undefined,
    changesCount: diff?.realSize ?? "",
    firstContribution: extras.firstContribution,
    // mergeable_discussions_state?: true unless the project requires resolved threads (helper D/E).
    blockingDiscussionsResolved: extras.status.blockingDiscussionsResolved,
    canMerge: extras.status.canMerge,
    headPipelineId: extras.status.headPipelineId,
    divergedCommitsCount: extras.divergedCommitsCount ?? 0,
    rebaseInProgress: false,
    subscribed: false,
    latestDiffId: diff?.id ?? 0,
  };
}

/** The project scope of each row: one scope for a project's list, a lookup for cross-project lists. */
export type ScopeOf = MergeRequestScope | ((projectId: number) => MergeRequestScope);

/**
 * Rows as messages with a fixed number of queries per page: user_notes_count from non-system
 * notes, upvotes/downvotes from thumbsup/thumbsdown awards, milestones via the milestone entity
 * (one batch per project), first_contribution from the authors' merged merge requests, and
 * mergeStatusFor each row as the caller sees it (for a list, listMergeStatuses: no mergeability
 * check, one query per page).
 */
export async function toMergeRequestMessages(
  deps: CollabDeps,
  db: PrismaClient | Tx,
  rows: MergeRequestRowFull[],
  scopes: ScopeOf,
  options: { listing?: boolean } = {},
): Promise<MergeRequest[]> {
  if (!rows.length) return [];
  const scopeOf = typeof scopes === "function" ? scopes : () => scopes;
  const ids = rows.map((r) => r.id);
  const projectIds = [...new Set(rows.map((r) => r.projectId))];
  const [notes, awards, merged] = await Promise.all([
    db.note.groupBy({ by: ["noteableId"], where: { noteableType: "MergeRequest", noteableId: { in: ids }, system: false }, _count: { _all: true } }),
    db.awardEmoji.groupBy({
      by: ["awardableId", "name"],
      where: { awardableType: "MergeRequest", awardableId: { in: ids }, name: { in: ["thumbsup", "thumbsdown"] } },
      _count: { _all: true },
    }),
    db.mergeRequest.findMany({
      where: { projectId: { in: projectIds }, authorId: { in: [...new Set(rows.map((r) => r.authorId))] }, state: "merged" },
      select: { id: true, projectId: true, authorId: true, mergedAt: true },
    }),
  ]);
  const notesOf = new Map(notes.map((n) => [n.noteableId, n._count._all]));
  const votes = (id: number, name: string) => awards.find((a) => a.awardableId === id && a.name === name)?._count._all ?? 0;
  // MergeRequest#first_contribution?: no merged merge request of the author in the project, or
  // for a merged one, none merged before it.
  const firstContribution = (r: MergeRequestRowFull) =>
    !merged.some(
      (m) =>
        m.projectId === r.projectId &&
        m.authorId === r.authorId &&
        m.id !== r.id &&
        (r.state !== "merged" || !r.mergedAt || (m.mergedAt !== null && m.mergedAt < r.mergedAt)),
    );

  const milestones = new Map<number, Milestone>();
  const byProject = new Map<number, MilestoneRow[]>();
  for (const r of rows) {
    if (!r.milestone) continue;
    const list = byProject.get(r.projectId) ?? [];
    if (!list.some((m) => m.id === r.milestone!.id)) list.push(r.milestone);
    byProject.set(r.projectId, list);
  }
  for (const [projectId, list] of byProject) {
    for (const m of await toMilestoneMessages(deps, scopeOf(projectId).parent, list)) milestones.set(Number(m.id), m);
  }
  const statuses = options.listing
    ? await listMergeStatuses(db, rows, (projectId) => scopeOf(projectId).project)
    : await Promise.all(rows.map((r) => mergeStatusFor(deps, r, scopeOf(r.projectId))));
  return rows.map((r, i) =>
    toMergeRequestProto(r, {
      projectPath: scopeOf(r.projectId).parent.fullPath,
      userNotesCount: notesOf.get(r.id) ?? 0,
      upvotes: votes(r.id, "thumbsup"),
      downvotes: votes(r.id, "thumbsdown"),
      milestone: r.milestoneId !== null ? milestones.get(r.milestoneId) : undefined,
      firstContribution: firstContribution(r),
      status: statuses[i]!,
    }),
  );
}

/** One merge request, reloaded with what its message needs. */
export async function loadMergeRequestMessage(deps: CollabDeps, scope: MergeRequestScope, id: number): Promise<MergeRequest> {
  const row = await deps.prisma.mergeRequest.findUniqueOrThrow({ where: { id }, include: mergeRequestInclude });
  return (await toMergeRequestMessages(deps, deps.prisma, [row], scope))[0]!;
}
