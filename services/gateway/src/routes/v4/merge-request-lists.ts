import type { Request, Response } from "express";
import { Router } from "express";
import type { ListMergeRequestsRequest } from "@quarry/proto/types/collab/v1/ListMergeRequestsRequest";
import type { GatewayDeps } from "../../deps.ts";
import type { IssueContext } from "../../entities/issue.ts";
import { mergeRequestBasic, mergeRequestSimple, mergeRequestUserIds } from "../../entities/merge-request.ts";
import { scope } from "../../http/auth.ts";
import { ApiError, unauthorized } from "../../http/errors.ts";
import { pageRequest } from "../../http/pagination.ts";
import { p, pageShape, params, parseParams, requestParams, z } from "../../http/params.ts";
import { usersById } from "./ci-context.ts";
import { ctx } from "./context.ts";
import { userIdOf } from "./issues.ts";

/**
 * Merge request lists (GitLab's lib/api/merge_requests.rb list routes with
 * helpers/merge_requests_helpers.rb's parameters, MergeRequestsFinder), served by collab-service's
 * ListMergeRequests: GET /merge_requests (created_by_me by default, 401 for anonymous callers
 * unless scope=all), /projects/:id/merge_requests (also iids[]) and /groups/:id/merge_requests
 * (subgroups included). Offset pages with GitLab's X-Total headers.
 */

const STATES = ["opened", "closed", "locked", "merged", "all"] as const;
const ORDER_BY = ["created_at", "updated_at", "merged_at", "title"] as const;
const SCOPES = ["created-by-me", "assigned-to-me", "created_by_me", "assigned_to_me", "reviews_for_me", "all"] as const;

/** A user id or None/Any (Grape's integer_none_any); anything else is refused with GitLab's words. */
const userOrWord = () => z.union([z.number(), z.string()]).transform((v) => String(v));
const labelList = () => p.array(z.string());

const negatable = {
  author_id: p.int().optional(),
  author_username: p.string().optional(),
  assignee_id: userOrWord().optional(),
  assignee_username: p.array(z.string()).optional(),
  reviewer_username: p.string().optional(),
  labels: labelList().optional(),
  milestone: p.string().optional(),
  my_reaction_emoji: p.string().optional(),
};

const listShape = {
  ...negatable,
  reviewer_id: userOrWord().optional(),
  state: p.enum(STATES).optional(),
  order_by: p.enum(ORDER_BY).optional(),
  sort: p.enum(["asc", "desc"]).optional(),
  with_labels_details: p.bool().optional(),
  with_merge_status_recheck: p.bool().optional(),
  created_after: p.datetime().optional(),
  created_before: p.datetime().optional(),
  updated_after: p.datetime().optional(),
  updated_before: p.datetime().optional(),
  view: p.enum(["simple"]).optional(),
  scope: p.enum(SCOPES).optional(),
  source_branch: p.string().optional(),
  source_project_id: p.int().optional(),
  target_branch: p.string().optional(),
  search: p.searchTerm("search").optional(),
  in: p.string().optional(),
  wip: p.enum(["yes", "no"]).optional(),
  not: p.object().optional(),
  deployed_before: p.string().optional(),
  deployed_after: p.string().optional(),
  environment: p.string().optional(),
  approved: p.enum(["yes", "no"]).optional(),
  merge_user_id: p.int().optional(),
  merge_user_username: p.string().optional(),
  approver_ids: z.any().optional(),
  approved_by_ids: z.any().optional(),
  non_archived: p.bool().optional(),
  iids: p.array(p.int()).optional(),
  ...pageShape,
};

const notShape = { ...negatable, reviewer_id: p.int().optional() };

const isWord = (v: string) => /^(none|any)$/i.test(v);

/** Grape's mutually_exclusive, in its words. */
function exclusive(values: Record<string, unknown>, pairs: [string, string][], prefix = ""): void {
  for (const [a, b] of pairs) {
    if (values[a] !== undefined && values[b] !== undefined) throw new ApiError(400, { error: `${prefix}${a}, ${prefix}${b} are mutually exclusive` });
  }
}

/** Grape's integer_none_any validator. */
function integerNoneAny(name: string, value: string | undefined): void {
  if (value !== undefined && !/^-?\d+$/.test(value) && !isWord(value)) throw new ApiError(400, { error: `${name} should be an integer, 'None' or 'Any'` });
}

/**
 * EE's array_none_any approval filters: an array of user ids or one of None/Any; the word or the
 * ids go to collab-service (which considers at most five approvers, as ByApprovalsFinder).
 */
function approvalFilter(name: string, raw: unknown): { word: string; ids: number[] } {
  if (raw === undefined || raw === null) return { word: "", ids: [] };
  if (typeof raw === "string" && isWord(raw)) return { word: raw.toLowerCase(), ids: [] };
  const list = Array.isArray(raw) ? raw : typeof raw === "object" ? Object.values(raw as object) : null;
  if (!list) throw new ApiError(400, { error: `${name} should be an array, 'None' or 'Any'` });
  if (list.length && isWord(String(list[0]))) return { word: String(list[0]).toLowerCase(), ids: [] };
  const ids = list.map((v) => Number(v));
  if (ids.some((n) => !Number.isInteger(n))) throw new ApiError(400, { error: `${name} is invalid` });
  return { word: "", ids };
}

/** A datetime GitLab's parse_datetime reads, as ISO 8601; unreadable ones are ignored (""). */
const lenientTime = (v: string | undefined) => (v && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : "");

/** A user filter's value: an id, None/Any as given, or the username's id (-1 when nobody has it). */
async function userFilter(deps: GatewayDeps, req: Request, id: string | number | undefined, username: string | undefined): Promise<string | undefined> {
  if (id !== undefined) return String(id);
  if (username === undefined) return undefined;
  return isWord(username) ? username : String(await userIdOf(deps, req, username));
}

export interface MergeRequestListScope {
  project?: string;
  group?: string;
  /** "created_by_me" for /merge_requests, "all" for projects and groups. */
  defaultScope: string;
}

/** GET …/merge_requests for a project, a group or the instance. */
export async function listMergeRequestsRoute(deps: GatewayDeps, req: Request, res: Response, where: MergeRequestListScope): Promise<void> {
  const raw = requestParams(req);
  const q = params(req, listShape);
  exclusive(raw, [
    ["author_id", "author_username"],
    ["assignee_id", "assignee_username"],
    ["reviewer_id", "reviewer_username"],
    ["merge_user_id", "merge_user_username"],
  ]);
  integerNoneAny("assignee_id", q.assignee_id);
  integerNoneAny("reviewer_id", q.reviewer_id);
  const rawNot = (q.not ?? {}) as Record<string, unknown>;
  const not = parseParams(notShape, rawNot);
  exclusive(
    rawNot,
    [
      ["author_id", "author_username"],
      ["assignee_id", "assignee_username"],
      ["reviewer_id", "reviewer_username"],
    ],
    "not[",
  );
  integerNoneAny("not[assignee_id]", not.assignee_id);
  const approvedBy = approvalFilter("approved_by_ids", q.approved_by_ids);
  const approver = approvalFilter("approver_ids", q.approver_ids);
  const scopeName = (q.scope ?? where.defaultScope).replace(/-/g, "_");
  // `authenticate! unless params[:scope] == 'all'` on /merge_requests only.
  if (!where.project && !where.group && scopeName !== "all" && !req.principal) throw unauthorized();
  const c = ctx(deps, req, res);
  const page = pageRequest(q);
  const authorId = q.author_id ?? (q.author_username ? await userIdOf(deps, req, q.author_username) : 0);
  const notAuthorId = not.author_id ?? (not.author_username ? await userIdOf(deps, req, not.author_username) : 0);
  const mergeUserId = q.merge_user_id ?? (q.merge_user_username ? await userIdOf(deps, req, q.merge_user_username) : 0);
  const assigneeUsers = q.assignee_username ?? [];
  const assigneeWord = assigneeUsers.length === 1 && isWord(assigneeUsers[0]!) ? assigneeUsers[0] : undefined;
  const assigneeUserIds = assigneeWord ? [] : await Promise.all(assigneeUsers.map((u) => userIdOf(deps, req, u)));
  const notReviewer = not.reviewer_id ?? (not.reviewer_username ? await userIdOf(deps, req, not.reviewer_username) : 0);
  const request: ListMergeRequestsRequest = {
    actor: c.actor,
    project: where.project ?? "",
    group: where.group ?? "",
    state: q.state ?? "all",
    labels: q.labels ?? [],
    notLabels: not.labels ?? [],
    milestone: q.milestone,
    notMilestone: not.milestone,
    assigneeId: q.assignee_id ?? assigneeWord,
    notAssigneeId: await userFilter(deps, req, not.assignee_id, not.assignee_username?.[0]),
    assigneeUserIds,
    authorId,
    notAuthorId,
    reviewerId: await userFilter(deps, req, q.reviewer_id, q.reviewer_username),
    notReviewerId: notReviewer,
    mergeUserId,
    myReactionEmoji: q.my_reaction_emoji,
    notMyReactionEmoji: not.my_reaction_emoji,
    approvedBy: approvedBy.word,
    approvedByIds: approvedBy.ids,
    approver: approver.word,
    approverIds: approver.ids,
    search: q.search ?? "",
    searchIn: (q.in ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s === "title" || s === "description"),
    iids: where.project ? (q.iids ?? []) : [],
    createdAfter: q.created_after ? new Date(q.created_after).toISOString() : "",
    createdBefore: q.created_before ? new Date(q.created_before).toISOString() : "",
    updatedAfter: q.updated_after ? new Date(q.updated_after).toISOString() : "",
    updatedBefore: q.updated_before ? new Date(q.updated_before).toISOString() : "",
    deployedAfter: lenientTime(q.deployed_after),
    deployedBefore: lenientTime(q.deployed_before),
    environment: q.environment ?? "",
    sourceBranch: q.source_branch ?? "",
    sourceProjectId: q.source_project_id ?? 0,
    // GitLab's defaults: true for groups, false for /merge_requests; a project list has no such parameter.
    nonArchived: where.project ? false : (q.non_archived ?? Boolean(where.group)),
    targetBranch: q.target_branch ?? "",
    wip: q.wip ?? "",
    scope: scopeName,
    orderBy: q.order_by ?? "created_at",
    sort: q.sort ?? "desc",
    page,
  };
  const list = await deps.collab.ListMergeRequests(request, c.call);
  c.paginate(list.pageInfo ? { total: Number(list.pageInfo.total), ...page } : null);
  if (q.view === "simple") {
    res.json(list.mergeRequests.map((mr) => mergeRequestSimple(mr, c.urls)));
    return;
  }
  const users = await usersById(deps, req, mergeRequestUserIds(list.mergeRequests));
  const context: IssueContext = where.project ? { kind: "project" } : where.group ? { kind: "group", fullPath: list.groupFullPath } : { kind: "instance" };
  res.json(list.mergeRequests.map((mr) => mergeRequestBasic(mr, users, { urls: c.urls, context, withLabelsDetails: q.with_labels_details ?? false })));
}

export function mergeRequestListsRouter(deps: GatewayDeps): Router {
  const r = Router();
  r.get("/merge_requests", scope("read"), (req, res) => listMergeRequestsRoute(deps, req, res, { defaultScope: "created_by_me" }));
  r.get("/groups/:id/merge_requests", scope("read"), (req, res) =>
    listMergeRequestsRoute(deps, req, res, { group: String(req.params.id), defaultScope: "all" }),
  );
  r.get("/projects/:id/merge_requests", scope("read"), (req, res) =>
    listMergeRequestsRoute(deps, req, res, { project: String(req.params.id), defaultScope: "all" }),
  );
  return r;
}
