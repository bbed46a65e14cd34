import type { Label } from "@quarry/proto/types/collab/v1/Label";
import type { PrismaClient, Tx } from "../deps.ts";
import type { Label as LabelRow } from "../generated/prisma/client.ts";
import type { ResolvedParent } from "./parent.ts";

/** The project a subscription or priority is scoped to when asked through `parent` (0 through a group). */
export const scopeProjectId = (parent: ResolvedParent): number => (parent.kind === "project" ? parent.id : 0);

/** Label rows as the caller sees them through `parent`: priority in that project, the caller's subscription. */
export async function toLabelMessages(db: PrismaClient | Tx, parent: ResolvedParent, rows: LabelRow[]): Promise<Label[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const projectId = scopeProjectId(parent);
  const [priorities, subscriptions] = await Promise.all([
    parent.kind === "project" ? db.labelPriority.findMany({ where: { projectId, labelId: { in: ids } } }) : Promise.resolve([]),
    parent.userId > 0 ? db.labelSubscription.findMany({ where: { userId: parent.userId, projectId, labelId: { in: ids } } }) : Promise.resolve([]),
  ]);
  const priorityOf = new Map(priorities.map((p) => [p.labelId, p.priority]));
  const subscribed = new Set(subscriptions.filter((s) => s.subscribed).map((s) => s.labelId));
  return rows.map((row) => ({
    id: row.id,
    name: row.title,
    color: row.color,
    description: row.description ?? undefined,
    projectId: row.projectId ?? 0,
    groupId: row.groupId ?? 0,
    priority: priorityOf.get(row.id),
    subscribed: subscribed.has(row.id),
    openIssuesCount: 0,
    closedIssuesCount: 0,
    openMergeRequestsCount: 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

export async function toLabelMessage(db: PrismaClient | Tx, parent: ResolvedParent, row: LabelRow): Promise<Label> {
  return (await toLabelMessages(db, parent, [row]))[0]!;
}
