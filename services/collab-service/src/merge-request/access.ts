import { AccessLevel, isPositiveInt32, RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import { forbidden, ServiceError, status } from "@quarry/grpc";
import type { Actor__Output } from "@quarry/proto";
import type { CollabDeps } from "../deps.ts";
import { relayRefusals } from "../upstream.ts";
import { mergeRequestInclude, type MergeRequestRowFull } from "./entity.ts";
import type { MergeRequestScope } from "./scope.ts";

/**
 * A project as a merge request handler sees it for the caller: the label/milestone parent (level,
 * groups) and identity's project (disk path, default branch, visibility).
 */
export type { MergeRequestScope };

/** ActiveRecord::RecordNotFound as the API answers it: `404 Not found` (lower-case f). */
export const recordNotFound = () => new ServiceError(status.NOT_FOUND, { message: RECORD_NOT_FOUND_MESSAGE });

/**
 * Resolves a project for the caller (identity's `404 Project Not Found` when invisible), with the
 * caller's level and the project's groups.
 */
export async function resolveMergeRequestScope(deps: CollabDeps, actor: Actor__Output | null, project: string): Promise<MergeRequestScope> {
  const a = { userId: Number(actor?.userId ?? 0), isAdmin: Boolean(actor?.isAdmin), system: actor?.system ?? "" };
  const auth = await relayRefusals(deps.identity.Authorize({ actor: a, action: "read_project", project }));
  const p = auth.project!;
  const id = Number(p.id);
  const { groupIds } = await relayRefusals(deps.identity.GetGroupAncestors({ actor: a, projectId: id }));
  return {
    parent: {
      kind: "project",
      id,
      fullPath: p.pathWithNamespace,
      accessLevel: auth.accessLevel,
      ancestorGroupIds: groupIds.map(Number),
      userId: a.userId,
      isAdmin: a.isAdmin || a.system !== "",
    },
    project: p,
  };
}

const level = (s: MergeRequestScope) => (s.parent.userId > 0 ? s.parent.accessLevel : 0);

/**
 * ProjectPolicy's read_merge_request: merge requests live with the code, so in a private project
 * Guests do not see them (Reporter+ do); in public and internal projects every reader does.
 */
export function canReadMergeRequests(s: MergeRequestScope): boolean {
  return s.parent.isAdmin || s.project.visibility !== "private" || level(s) >= AccessLevel.REPORTER;
}

/** `authorize! :read_merge_request, user_project` (403 Forbidden). */
export function requireReadMergeRequests(s: MergeRequestScope): void {
  if (!canReadMergeRequests(s)) throw forbidden();
}

/**
 * create_merge_request_from on the source project: the caller must be able to push there
 * (Developer+); Quarry has no forks, so source and target are the same project.
 */
export function requireCreateMergeRequest(s: MergeRequestScope): void {
  if (s.parent.isAdmin) return;
  if (level(s) < AccessLevel.DEVELOPER) throw forbidden();
}

/**
 * MergeRequestPolicy's update_merge_request: Developer+ of the project, or the author (and the
 * assignees, as IssuablePolicy's is_author/assignee rules grant) while they can still read it.
 */
export function canUpdateMergeRequest(s: MergeRequestScope, mr: Pick<MergeRequestRowFull, "authorId" | "assignees">): boolean {
  if (s.parent.isAdmin) return true;
  if (s.parent.userId <= 0 || !canReadMergeRequests(s)) return false;
  if (level(s) >= AccessLevel.DEVELOPER) return true;
  return mr.authorId === s.parent.userId || mr.assignees.some((a) => a.userId === s.parent.userId);
}

/** admin_merge_request (labels, milestone, assignees, locking): Developer+ (Reporter can only label in GitLab's UI). */
export function canAdminMergeRequest(s: MergeRequestScope): boolean {
  return s.parent.isAdmin || level(s) >= AccessLevel.DEVELOPER;
}

/** destroy_merge_request: the project's Owners and administrators. */
export function canDestroyMergeRequest(s: MergeRequestScope): boolean {
  return s.parent.isAdmin || level(s) >= AccessLevel.OWNER;
}

/**
 * GitLab's find_merge_request_with_access: `404 Not found` for an iid the project does not have
 * (and for a bad one), then `authorize! :read_merge_request` (403 for a reader who may not see
 * merge requests).
 */
export async function findVisibleMergeRequest(
  deps: CollabDeps,
  actor: Actor__Output | null,
  project: string,
  iid: number,
): Promise<MergeRequestScope & { mr: MergeRequestRowFull }> {
  const scope = await resolveMergeRequestScope(deps, actor, project);
  if (!isPositiveInt32(iid)) throw recordNotFound();
  const mr = await deps.prisma.mergeRequest.findUnique({ where: { projectId_iid: { projectId: scope.parent.id, iid } }, include: mergeRequestInclude });
  if (!mr) throw recordNotFound();
  requireReadMergeRequests(scope);
  return { ...scope, mr };
}
