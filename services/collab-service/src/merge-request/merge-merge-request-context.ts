// What merging, rebasing and auto-merge share: the merge request with its project as
// identity-service answers it for the caller, and the push context of the git writes.
import { isPositiveInt32, VISIBILITY_LEVEL } from "@quarry/gitlab";
import type { Actor__Output } from "@quarry/proto";
import type { MergePusher__Output as MergePusher } from "@quarry/proto/types/collab/v1/MergePusher";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import type { PushContext } from "@quarry/proto/types/repo/v1/PushContext";
import type { CollabDeps } from "../deps.ts";
import type { MergeRequest } from "../generated/prisma/client.ts";
import { canReadMergeRequests, recordNotFound, resolveMergeRequestScope, type MergeRequestScope } from "./access.ts";
import { callerOf, ruleLevelOf, type MergeCaller } from "./merge-status.ts";

export interface MergeContext {
  /** The project as mr-core's handlers see it (entity, events). */
  scope: MergeRequestScope;
  /** The target project (identity's Project: disk path, merge settings, URLs' path). */
  project: Project;
  caller: MergeCaller;
  mr: MergeRequest;
}

/** The pusher fields stored with an auto-merge, so the later merge's push event names the merge user. */
export type StoredPusher = Pick<MergePusher, "userName" | "userUsername" | "userEmail" | "webUrl" | "httpUrl" | "sshUrl">;

/**
 * GitLab's find_project_merge_request: the project must be visible to the caller (identity's 404
 * otherwise) and the iid one of its merge requests the caller may read (MergeRequestsFinder's
 * find_by!: `404 Not found` otherwise).
 */
export async function loadMergeContext(deps: CollabDeps, actor: Actor__Output | null, project: string, iid: number): Promise<MergeContext> {
  const scope = await resolveMergeRequestScope(deps, actor, project);
  if (!isPositiveInt32(iid)) throw recordNotFound();
  const mr = await deps.prisma.mergeRequest.findUnique({ where: { projectId_iid: { projectId: scope.parent.id, iid } } });
  if (!mr || !canReadMergeRequests(scope)) throw recordNotFound();
  return { scope, project: scope.project, caller: callerOf(scope), mr };
}

/** The push event context of a merge's or rebase's git writes, for the caller as `pusher` describes them. */
export function pushContextFor(project: Project, caller: MergeCaller, pusher: StoredPusher | null): PushContext {
  return {
    projectId: Number(project.id),
    projectName: project.name,
    projectDescription: project.description,
    pathWithNamespace: project.pathWithNamespace,
    namespaceName: project.namespace?.name ?? "",
    visibilityLevel: VISIBILITY_LEVEL[project.visibility] ?? 0,
    defaultBranch: project.defaultBranch,
    webUrl: pusher?.webUrl ?? "",
    httpUrl: pusher?.httpUrl ?? "",
    sshUrl: pusher?.sshUrl ?? "",
    ciConfigPath: project.ciConfigPath,
    userId: caller.userId,
    userName: pusher?.userName ?? "",
    userUsername: pusher?.userUsername ?? "",
    userEmail: pusher?.userEmail ?? "",
    userAvatar: "",
    accessLevel: ruleLevelOf(caller),
  };
}
