// What merging, rebasing and auto-merge share: the merge request with its project as
// identity-service answers it for the caller, and the push context of the git writes.
import { isPositiveInt32, VISIBILITY_LEVEL } from "@quarry/gitlab";
import { notFound } from "@quarry/grpc";
import type { Actor__Output } from "@quarry/proto";
import type { MergePusher__Output as MergePusher } from "@quarry/proto/types/collab/v1/MergePusher";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import type { PushContext } from "@quarry/proto/types/repo/v1/PushContext";
import type { CollabDeps } from "../deps.ts";
import type { MergeRequest } from "../generated/prisma/client.ts";
import { relayRefusals } from "../upstream.ts";
import { ruleLevelOf, type MergeCaller } from "./merge-status.ts";

export interface MergeContext {
  /** The target project (identity's Project: disk path, merge settings, URLs' path). */
  project: Project;
  caller: MergeCaller;
  mr: MergeRequest;
}

/** The pusher fields stored with an auto-merge, so the later merge's push event names the merge user. */
export type StoredPusher = Pick<MergePusher, "userName" | "userUsername" | "userEmail" | "webUrl" | "httpUrl" | "sshUrl">;

/**
 * GitLab's find_project_merge_request: the project must be visible to the caller (identity's 404
 * otherwise) and the iid one of its merge requests ("404 Merge Request Not Found").
 */
export async function loadMergeContext(deps: CollabDeps, actor: Actor__Output | null, project: string, iid: number): Promise<MergeContext> {
  const a = { userId: Number(actor?.userId ?? 0), isAdmin: Boolean(actor?.isAdmin), system: actor?.system ?? "" };
  const auth = await relayRefusals(deps.identity.Authorize({ actor: a, action: "read_project", project }));
  const p = auth.project!;
  if (!isPositiveInt32(iid)) throw notFound("Merge Request");
  const mr = await deps.prisma.mergeRequest.findUnique({ where: { projectId_iid: { projectId: Number(p.id), iid } } });
  if (!mr) throw notFound("Merge Request");
  return { project: p, caller: { userId: a.userId, isAdmin: a.isAdmin || a.system !== "", accessLevel: auth.accessLevel }, mr };
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
