import { pagination } from "@quarry/database";
import { paramError } from "@quarry/grpc";
import type { ListMergeRequestsRequest__Output } from "@quarry/proto/types/collab/v1/ListMergeRequestsRequest";
import type { ListMergeRequestsResponse } from "@quarry/proto/types/collab/v1/ListMergeRequestsResponse";
import type { CollabDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { ANY, dateBoundsWhere, isWord, labelsWhere, milestoneWhere, NONE, reactionWhere, searchWhere } from "../issuable/filters.ts";
import type { ScopeProject } from "../issue/list-issues.ts";
import { relayRefusals } from "../upstream.ts";
import { type MergeRequestScope, requireReadMergeRequests, resolveMergeRequestScope } from "./access.ts";
import { listMergeRequestMessages, withoutArchived, withReadableMergeRequests } from "./list-merge-requests-messages.ts";

/** GitLab's ByApprovalsFinder::MAX_FILTER_ELEMENTS: further approved_by_ids are ignored. */
export const MAX_APPROVED_BY_IDS = 5;

const STATES = new Set(["opened", "closed", "locked", "merged"]);

/** `assignee_id=` / `reviewer_id=`: a user id, None or Any (-1 = an unknown username: nothing). */
function userFilter(value: string | undefined, relation: "assignees" | "reviewers"): Prisma.MergeRequestWhereInput | null {
  if (value === undefined || value === "") return null;
  if (isWord(value, NONE)) return { [relation]: { none: {} } };
  if (isWord(value, ANY)) return { [relation]: { some: {} } };
  return { [relation]: { some: { userId: Number(value) || -1 } } };
}

/**
 * MergeRequestsFinder's filters (IssuableFinder's plus branches, drafts, reviewers, merge user,
 * approvals and deployments) over the scope's projects, as Prisma conditions to AND together.
 *
 * - approver_ids: GitLab's individual approvers are approval-rule users, a higher-tier feature;
 *   Quarry has no approval rules, so no merge request has an individual approver: None matches
 *   every merge request, Any and user ids match none.
 * - environment, deployed_after, deployed_before: GitLab matches merge requests with a deployment
 *   (deployment_merge_requests) fitting them. ci-service's deployments are not linked to merge
 *   requests in collab-service (no read model of them here yet), so any of them (a valid one:
 *   unparseable times are ignored, as GitLab's parse_datetime) matches nothing. Linking them
 *   (a deployment_merge_requests read model fed by quarry.ci.deployment) joins here.
 */
export async function mergeRequestFilters(
  deps: CollabDeps,
  req: ListMergeRequestsRequest__Output,
  projects: { id: number }[],
  actorUser: number,
  now: Date,
): Promise<Prisma.MergeRequestWhereInput[]> {
  const f: Prisma.MergeRequestWhereInput[] = [{ projectId: { in: projects.map((p) => p.id) } }];
  if (req.state && req.state !== "all") {
    if (!STATES.has(req.state)) throw paramError("state does not have a valid value");
    f.push({ state: req.state });
  }
  f.push(...labelsWhere(req.labels, req.notLabels));
  if (req.milestone !== undefined && req.milestone !== "") f.push(milestoneWhere(req.milestone, now));
  if (req.notMilestone !== undefined && req.notMilestone !== "") f.push({ NOT: milestoneWhere(req.notMilestone, now) });

  const assignee = userFilter(req.assigneeId, "assignees");
  if (assignee) f.push(assignee);
  for (const u of req.assigneeUserIds) f.push({ assignees: { some: { userId: Number(u) } } });
  if (req.notAssigneeId !== undefined && req.notAssigneeId !== "") f.push({ assignees: { none: { userId: Number(req.notAssigneeId) || -1 } } });
  const reviewer = userFilter(req.reviewerId, "reviewers");
  if (reviewer) f.push(reviewer);
  // An unknown not[reviewer_username] answers nothing (GitLab's "reviewer not found" → none).
  const notReviewer = Number(req.notReviewerId);
  if (notReviewer === -1) f.push({ id: -1 });
  else if (notReviewer > 0) f.push({ reviewers: { none: { userId: notReviewer } } });
  if (Number(req.authorId) !== 0) f.push({ authorId: Number(req.authorId) });
  if (Number(req.notAuthorId) !== 0) f.push({ authorId: { not: Number(req.notAuthorId) } });
  // merged_by: the merge user of a merged merge request (MergeRequest::Metrics#merged_by_id), not
  // the user who set auto-merge on an open one.
  if (Number(req.mergeUserId) !== 0) f.push({ state: "merged", mergeUserId: Number(req.mergeUserId) });

  f.push(...(await reactionWhere(deps, "MergeRequest", actorUser, req.myReactionEmoji, req.notMyReactionEmoji)));

  if (isWord(req.approvedBy, NONE)) f.push({ approvals: { none: {} } });
  else if (isWord(req.approvedBy, ANY)) f.push({ approvals: { some: {} } });
  else for (const id of [...new Set(req.approvedByIds.map(Number))].slice(0, MAX_APPROVED_BY_IDS)) f.push({ approvals: { some: { userId: id } } });
  if (isWord(req.approver, ANY) || (!isWord(req.approver, NONE) && req.approverIds.length)) f.push({ id: -1 });

  if (req.environment || req.deployedAfter || req.deployedBefore) f.push({ id: -1 });

  const search = searchWhere(req.search, req.searchIn);
  if (search) f.push(search);
  if (req.iids.length) f.push({ iid: { in: req.iids.map(Number) } });
  f.push(...dateBoundsWhere(req));
  if (req.sourceBranch) f.push({ sourceBranch: req.sourceBranch });
  if (Number(req.sourceProjectId) > 0) f.push({ sourceProjectId: Number(req.sourceProjectId) });
  if (req.targetBranch) f.push({ targetBranch: req.targetBranch });
  if (req.wip === "yes") f.push({ draft: true });
  else if (req.wip === "no") f.push({ draft: false });

  // Anonymous callers own nothing: their "mine" scopes are empty.
  const mine = actorUser > 0 ? actorUser : -1;
  if (req.scope === "created_by_me") f.push({ authorId: mine });
  else if (req.scope === "assigned_to_me") f.push({ assignees: { some: { userId: mine } } });
  else if (req.scope === "reviews_for_me") f.push({ reviewers: { some: { userId: mine } } });
  else if (req.scope && req.scope !== "all") throw paramError("scope does not have a valid value");
  return f;
}

/** GitLab's sort options; ties by id in the same direction, merged_at with unmerged last. */
export function mergeRequestOrder(orderByName: string, sort: "asc" | "desc"): Prisma.MergeRequestOrderByWithRelationInput[] {
  switch (orderByName) {
    case "":
    case "created_at":
      return [{ createdAt: sort }, { id: sort }];
    case "updated_at":
      return [{ updatedAt: sort }, { id: sort }];
    case "title":
      return [{ title: sort }, { id: sort }];
    case "merged_at":
      return [{ mergedAt: { sort, nulls: "last" } }, { id: sort }];
    default:
      throw paramError("order_by does not have a valid value");
  }
}

/**
 * GitLab's MergeRequestsFinder for GET /projects/:id/merge_requests, /groups/:id/merge_requests
 * (subgroups included) and /merge_requests: the scope's projects (identity-service's
 * ListVisibleProjects for groups and the instance; every readable project has readable merge
 * requests in Quarry), the filters above, one offset page.
 */
export const listMergeRequests =
  (deps: CollabDeps) =>
  async (req: ListMergeRequestsRequest__Output): Promise<ListMergeRequestsResponse> => {
    const actorUser = Number(req.actor?.userId ?? 0);
    const actor = { userId: actorUser, isAdmin: Boolean(req.actor?.isAdmin), system: req.actor?.system ?? "" };
    if (req.sort && req.sort !== "asc" && req.sort !== "desc") throw paramError("sort does not have a valid value");
    const sort = req.sort === "asc" ? "asc" : "desc";
    const order = mergeRequestOrder(req.orderBy, sort);
    let projects: ScopeProject[];
    let groupFullPath = "";
    let projectScope: MergeRequestScope | null = null;
    if (req.project) {
      projectScope = await resolveMergeRequestScope(deps, req.actor, req.project);
      requireReadMergeRequests(projectScope);
      projects = [{ id: projectScope.parent.id, path: projectScope.parent.fullPath, level: projectScope.parent.accessLevel }];
    } else {
      const visible = await relayRefusals(deps.identity.ListVisibleProjects({ actor, group: req.group, minAccessLevel: 0 }));
      projects = await withReadableMergeRequests(
        deps,
        req.actor,
        visible.projects.map((p) => ({ id: Number(p.id), path: p.pathWithNamespace, level: p.accessLevel })),
      );
      groupFullPath = visible.groupFullPath;
      if (req.nonArchived) projects = await withoutArchived(deps, req.actor, projects);
    }
    const where: Prisma.MergeRequestWhereInput = { AND: await mergeRequestFilters(deps, req, projects, actorUser, new Date()) };
    const { offset, limit } = pagination(req.page?.page ?? 0, req.page?.perPage ?? 0);
    const [total, ids] = await Promise.all([
      deps.prisma.mergeRequest.count({ where }),
      deps.prisma.mergeRequest.findMany({ where, select: { id: true }, orderBy: order, skip: offset, take: limit }),
    ]);
    return {
      mergeRequests: await listMergeRequestMessages(
        deps,
        req.actor,
        ids.map((r) => r.id),
        projectScope,
      ),
      pageInfo: { total, page: offset / limit + 1, perPage: limit },
      groupFullPath,
    };
  };
