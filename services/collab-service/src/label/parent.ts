import { AccessLevel } from "@quarry/gitlab";
import { forbidden, paramError } from "@quarry/grpc";
import type { Actor__Output } from "@quarry/proto";
import type { Parent__Output } from "@quarry/proto/types/collab/v1/Parent";
import type { CollabDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { relayRefusals } from "../upstream.ts";

/**
 * A label parent as identity-service answered for the caller: a project (with the groups it sits
 * in) or a group (with itself and its ancestors). collab-service reads no identity table.
 */
export interface ResolvedParent {
  kind: "project" | "group";
  /** The project's or the group's id. */
  id: number;
  /** The project's path_with_namespace or the group's full_path. */
  fullPath: string;
  /** The caller's effective level there (identity's Authorize). */
  accessLevel: number;
  /** The groups above: a project's namespace group and its ancestors; a group's ancestors (not itself). */
  ancestorGroupIds: number[];
  /** The calling user (0 = anonymous or a system caller). */
  userId: number;
  /** Instance administrator or a system caller: passes every role check. */
  isAdmin: boolean;
}

/**
 * Asks identity-service whether the caller may see the parent (NOT_FOUND "404 Project Not Found" /
 * "404 Group Not Found" otherwise) and which groups it sits in.
 */
export async function resolveParent(deps: CollabDeps, actor: Actor__Output | null, parent: Parent__Output | null): Promise<ResolvedParent> {
  const a = { userId: Number(actor?.userId ?? 0), isAdmin: Boolean(actor?.isAdmin), system: actor?.system ?? "" };
  const isAdmin = a.isAdmin || a.system !== "";
  if (parent?.project) {
    const auth = await relayRefusals(deps.identity.Authorize({ actor: a, action: "read_project", project: parent.project }));
    const id = Number(auth.project!.id);
    const { groupIds } = await relayRefusals(deps.identity.GetGroupAncestors({ actor: a, projectId: id }));
    const fullPath = auth.project!.pathWithNamespace;
    return { kind: "project", id, fullPath, accessLevel: auth.accessLevel, ancestorGroupIds: groupIds.map(Number), userId: a.userId, isAdmin };
  }
  if (parent?.group) {
    const auth = await relayRefusals(deps.identity.Authorize({ actor: a, action: "read_group", group: parent.group }));
    const id = Number(auth.group!.id);
    const { groupIds } = await relayRefusals(deps.identity.GetGroupAncestors({ actor: a, groupId: id }));
    const ancestorGroupIds = groupIds.map(Number).filter((g) => g !== id);
    return { kind: "group", id, fullPath: auth.group!.fullPath, accessLevel: auth.accessLevel, ancestorGroupIds, userId: a.userId, isAdmin };
  }
  throw paramError("project or group is missing");
}

/** GitLab's `authorize! :admin_label`: Reporter or above in the project or group (403 otherwise). */
export function requireAdminLabel(parent: ResolvedParent): void {
  if (parent.isAdmin) return;
  if (parent.userId <= 0 || parent.accessLevel < AccessLevel.REPORTER) throw forbidden();
}

/** GitLab's `authorize! :admin_milestone`: Reporter or above, as for labels. */
export const requireAdminMilestone = requireAdminLabel;

/** The labels a parent offers (GitLab's available_labels_for): its own, and its groups' when asked. */
export function availableLabelsWhere(parent: ResolvedParent, includeAncestorGroups: boolean): Prisma.LabelWhereInput {
  const own: Prisma.LabelWhereInput = parent.kind === "project" ? { projectId: parent.id } : { groupId: parent.id };
  if (!includeAncestorGroups || parent.ancestorGroupIds.length === 0) return own;
  return { OR: [own, { groupId: { in: parent.ancestorGroupIds } }] };
}
