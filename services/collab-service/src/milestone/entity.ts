import type { Milestone } from "@quarry/proto/types/collab/v1/Milestone";
import type { CollabDeps } from "../deps.ts";
import type { Milestone as MilestoneRow } from "../generated/prisma/client.ts";
import type { ResolvedParent } from "../label/parent.ts";
import { relayRefusals } from "../upstream.ts";

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : undefined);

/**
 * Milestone rows as messages; web paths need the owning project's or group's full path: the
 * parent's own, and for its groups' milestones identity-service's GetGroup (one call per group).
 */
export async function toMilestoneMessages(deps: CollabDeps, parent: ResolvedParent, rows: MilestoneRow[]): Promise<Milestone[]> {
  const paths = new Map<string, string>([[`${parent.kind}:${parent.id}`, parent.fullPath]]);
  for (const row of rows) {
    const key = row.projectId !== null ? `project:${row.projectId}` : `group:${row.groupId}`;
    if (paths.has(key) || row.groupId === null) continue;
    const group = await relayRefusals(deps.identity.GetGroup({ actor: { userId: 0, isAdmin: true, system: "collab-service" }, idOrPath: String(row.groupId) }));
    paths.set(key, group.fullPath);
  }
  return rows.map((row) => {
    const own = row.projectId !== null ? `project:${row.projectId}` : `group:${row.groupId}`;
    const path = paths.get(own) ?? "";
    return {
      id: row.id,
      iid: row.iid,
      projectId: row.projectId ?? 0,
      groupId: row.groupId ?? 0,
      title: row.title,
      description: row.description ?? undefined,
      state: row.state,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      dueDate: day(row.dueDate),
      startDate: day(row.startDate),
      webPath: row.projectId !== null ? `/${path}/-/milestones/${row.iid}` : `/groups/${path}/-/milestones/${row.iid}`,
    };
  });
}

export async function toMilestoneMessage(deps: CollabDeps, parent: ResolvedParent, row: MilestoneRow): Promise<Milestone> {
  return (await toMilestoneMessages(deps, parent, [row]))[0]!;
}
