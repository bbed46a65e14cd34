import type { Issue } from "@quarry/proto/types/collab/v1/Issue";
import type { Label } from "@quarry/proto/types/collab/v1/Label";
import type { CollabDeps, PrismaClient, Tx } from "../deps.ts";
import type { Issue as IssueRow, Label as LabelRow, Milestone as MilestoneRow } from "../generated/prisma/client.ts";
import type { ResolvedParent } from "../label/parent.ts";
import { toMilestoneMessages } from "../milestone/entity.ts";

/** What an issue message is built from: the row with its assignees and labels. */
export const issueInclude = {
  assignees: true,
  labels: { include: { label: true } },
  milestone: true,
} as const;

export type IssueRowFull = IssueRow & { assignees: { userId: number }[]; labels: { label: LabelRow }[]; milestone: MilestoneRow | null };

/** A label as an issue shows it (LabelBasic: no priority or subscription in this view). */
export function plainLabel(row: LabelRow): Label {
  return {
    id: row.id,
    name: row.title,
    color: row.color,
    description: row.description ?? undefined,
    projectId: row.projectId ?? 0,
    groupId: row.groupId ?? 0,
    subscribed: false,
    openIssuesCount: 0,
    closedIssuesCount: 0,
    openMergeRequestsCount: 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : undefined);

/** A stand-in parent for building a project's milestone messages (only kind, id and path are read). */
const projectParent = (id: number, fullPath: string): ResolvedParent => ({
  kind: "project",
  id,
  fullPath,
  accessLevel: 0,
  ancestorGroupIds: [],
  userId: 0,
  isAdmin: true,
});

/**
 * Issue rows as messages: user_notes_count from the non-system notes, upvotes/downvotes from
 * thumbsup/thumbsdown awards, milestones as the milestone entity, labels by title.
 */
export async function toIssueMessages(deps: CollabDeps, db: PrismaClient | Tx, rows: IssueRowFull[], projectPaths: Map<number, string>): Promise<Issue[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [notes, awards] = await Promise.all([
    db.note.groupBy({ by: ["noteableId"], where: { noteableType: "Issue", noteableId: { in: ids }, system: false }, _count: { _all: true } }),
    db.awardEmoji.groupBy({
      by: ["awardableId", "name"],
      where: { awardableType: "Issue", awardableId: { in: ids }, name: { in: ["thumbsup", "thumbsdown"] } },
      _count: { _all: true },
    }),
  ]);
  const notesOf = new Map(notes.map((n) => [n.noteableId, n._count._all]));
  const votes = (id: number, name: string) => awards.find((a) => a.awardableId === id && a.name === name)?._count._all ?? 0;
  const milestones = new Map<number, Awaited<ReturnType<typeof toMilestoneMessages>>[number]>();
  const byProject = new Map<number, MilestoneRow[]>();
  for (const r of rows) {
    if (!r.milestone || milestones.has(r.milestone.id)) continue;
    const list = byProject.get(r.projectId) ?? [];
    if (!list.some((m) => m.id === r.milestone!.id)) list.push(r.milestone);
    byProject.set(r.projectId, list);
  }
  for (const [projectId, list] of byProject) {
    const messages = await toMilestoneMessages(deps, projectParent(projectId, projectPaths.get(projectId) ?? ""), list);
    for (const m of messages) milestones.set(Number(m.id), m);
  }
  return rows.map((r) => ({
    id: r.id,
    iid: r.iid,
    projectId: r.projectId,
    projectPath: projectPaths.get(r.projectId) ?? "",
    title: r.title,
    description: r.description ?? undefined,
    state: r.state,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    closedAt: r.closedAt?.toISOString(),
    closedById: r.closedById ?? 0,
    authorId: r.authorId,
    assigneeIds: r.assignees.map((a) => a.userId),
    labels: r.labels
      .map((l) => l.label)
      .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0))
      .map(plainLabel),
    milestone: r.milestoneId !== null ? milestones.get(r.milestoneId) : undefined,
    dueDate: day(r.dueDate),
    confidential: r.confidential,
    discussionLocked: r.discussionLocked ?? undefined,
    issueType: r.issueType,
    timeEstimate: r.timeEstimate,
    totalTimeSpent: r.totalTimeSpent,
    userNotesCount: notesOf.get(r.id) ?? 0,
    upvotes: votes(r.id, "thumbsup"),
    downvotes: votes(r.id, "thumbsdown"),
  }));
}

/** One issue, reloaded with what its message needs. */
export async function loadIssueMessage(deps: CollabDeps, parent: ResolvedParent, issueId: number): Promise<Issue> {
  const row = await deps.prisma.issue.findUniqueOrThrow({ where: { id: issueId }, include: issueInclude });
  return (await toIssueMessages(deps, deps.prisma, [row], new Map([[parent.id, parent.fullPath]])))[0]!;
}
