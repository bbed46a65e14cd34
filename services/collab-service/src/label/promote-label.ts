import { badRequest } from "@quarry/grpc";
import type { Label } from "@quarry/proto/types/collab/v1/Label";
import type { PromoteLabelRequest__Output } from "@quarry/proto/types/collab/v1/PromoteLabelRequest";
import type { CollabDeps } from "../deps.ts";
import { relayRefusals } from "../upstream.ts";
import { toLabelMessage } from "./entity.ts";
import { findLabel } from "./find.ts";
import { requireAdminLabel, resolveParent, type ResolvedParent } from "./parent.ts";

const FAILED = "Failed to promote project label to group label";
/** Who lists a group's projects for the merge: the service itself (the caller's rights were checked on the group). */
const SYSTEM = { userId: 0, isAdmin: true, system: "collab-service" };

/** The ids of the projects directly in a group (GitLab's `group.projects`), page by page from identity-service. */
async function groupProjectIds(deps: CollabDeps, groupId: number): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const res = await relayRefusals(deps.identity.ListProjects({ actor: SYSTEM, namespaceId: groupId, page: { page, perPage: 100 } }));
    ids.push(...res.projects.map((p) => Number(p.id)));
    if (res.projects.length < 100) return ids;
  }
}

/**
 * GitLab's promote_label: the project must sit in a group (400 otherwise) where the caller has
 * admin_label (403); the label is one of the project's own (404). The group's label of that title
 * (made with the project label's colour and description when missing) takes the place of every
 * label of that title in the group's projects: their priorities and subscriptions move to it, then
 * they are deleted.
 */
export const promoteLabel =
  (deps: CollabDeps) =>
  async (req: PromoteLabelRequest__Output): Promise<Label> => {
    const project = await resolveParent(deps, req.actor, req.parent);
    const groupId = project.ancestorGroupIds[0];
    if (project.kind !== "project" || groupId === undefined) throw badRequest(FAILED);
    const group: ResolvedParent = await resolveParent(deps, req.actor, { project: "", group: String(groupId) });
    requireAdminLabel(group);
    const label = await findLabel(deps.prisma, project, req.label, false);
    const projectIds = await groupProjectIds(deps, groupId);
    const promoted = await deps.prisma.$transaction(async (tx) => {
      const groupLabel =
        (await tx.label.findFirst({ where: { groupId, title: label.title } })) ??
        (await tx.label.create({ data: { groupId, title: label.title, color: label.color, description: label.description } }));
      const inGroup = [...new Set([project.id, ...projectIds])];
      const old = await tx.label.findMany({ where: { title: label.title, projectId: { in: inGroup } }, select: { id: true } });
      const oldIds = old.map((l) => l.id);
      for (const p of await tx.labelPriority.findMany({ where: { labelId: { in: oldIds } }, orderBy: { id: "asc" } })) {
        const key = { projectId_labelId: { projectId: p.projectId, labelId: groupLabel.id } };
        await tx.labelPriority.upsert({ where: key, create: { projectId: p.projectId, labelId: groupLabel.id, priority: p.priority }, update: {} });
      }
      for (const s of await tx.labelSubscription.findMany({ where: { labelId: { in: oldIds } }, orderBy: { id: "asc" } })) {
        const key = { labelId_userId_projectId: { labelId: groupLabel.id, userId: s.userId, projectId: s.projectId } };
        const create = { labelId: groupLabel.id, userId: s.userId, projectId: s.projectId, subscribed: s.subscribed };
        await tx.labelSubscription.upsert({ where: key, create, update: {} });
      }
      await tx.label.deleteMany({ where: { id: { in: oldIds } } });
      return groupLabel;
    });
    return toLabelMessage(deps.prisma, group, promoted);
  };
