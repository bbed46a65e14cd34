// Whether a merge request can be merged, as GitLab answers it: merge_status (the cached git
// mergeability), has_conflicts, detailed_merge_status (MergeRequests::Mergeability::
// DetailedMergeStatusService over the checks of app/services/merge_requests/mergeability/*),
// user.can_merge and the head pipeline.
import { AccessLevel } from "@quarry/gitlab";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import type { CheckMergeResponse__Output as CheckMergeResponse } from "@quarry/proto/types/repo/v1/CheckMergeResponse";
import type { CollabDeps, Tx } from "../deps.ts";
import type { CiPipeline, MergeRequest } from "../generated/prisma/client.ts";
import type { MergeRequestScope } from "./scope.ts";
import { headPipelineOf, isHeadPipelineOf, isInProgress } from "./pipelines.ts";

/** A project's merge settings as the merge checks read them (GitLab's defaults where identity has none). */
export interface MergeSettingsView {
  mergeMethod: "merge" | "rebase_merge" | "ff";
  onlyAllowMergeIfPipelineSucceeds: boolean;
  allowMergeOnSkippedPipeline: boolean;
  onlyAllowMergeIfAllDiscussionsAreResolved: boolean;
  approvalsBeforeMerge: number;
  autocloseReferencedIssues: boolean;
  squashOption: string;
  mergeCommitTemplate: string;
  squashCommitTemplate: string;
}

/** identity-service's MergeSettings of a project; "" merge_method is GitLab's default "merge". */
export function mergeSettingsOf(project: Pick<Project, "mergeSettings">): MergeSettingsView {
  const s = project.mergeSettings;
  const method = s?.mergeMethod;
  return {
    mergeMethod: method === "ff" || method === "rebase_merge" ? method : "merge",
    onlyAllowMergeIfPipelineSucceeds: Boolean(s?.onlyAllowMergeIfPipelineSucceeds),
    allowMergeOnSkippedPipeline: Boolean(s?.allowMergeOnSkippedPipeline),
    onlyAllowMergeIfAllDiscussionsAreResolved: Boolean(s?.onlyAllowMergeIfAllDiscussionsAreResolved),
    approvalsBeforeMerge: Number(s?.approvalsBeforeMerge ?? 0),
    // GitLab's default is on; identity-service sends the stored value once it has settings.
    autocloseReferencedIssues: s ? Boolean(s.autocloseReferencedIssues) : true,
    squashOption: s?.squashOption || "default_off",
    mergeCommitTemplate: s?.mergeCommitTemplate ?? "",
    squashCommitTemplate: s?.squashCommitTemplate ?? "",
  };
}

/** GitLab's merge_status values that mean "not known yet": a check is due. */
const RECHECK_STATUSES: readonly string[] = ["unchecked", "checking", "cannot_be_merged_recheck", "cannot_be_merged_rechecking"];

/** GitLab's public_merge_status: a recheck in progress shows as "checking". */
export function publicMergeStatus(status: string): string {
  return status === "cannot_be_merged_rechecking" || status === "preparing" ? "checking" : status;
}

/** GitLab's has_conflicts: the last check found conflicts. */
export const hasConflictsStatus = (status: string): boolean => status === "cannot_be_merged" || status === "cannot_be_merged_recheck";

/** Everything the mergeability checks look at. */
export interface MergeFacts {
  state: string;
  draft: boolean;
  /** The row's merge_status after any check this read ran. */
  mergeStatus: string;
  headSha: string | null;
  mergeAfter: Date | null;
  now: Date;
  settings: MergeSettingsView;
  unresolvedDiscussions: number;
  headPipeline: Pick<CiPipeline, "status"> | null;
  autoMerge: boolean;
  approvals: number;
  /** Whether the target's head is in the source (null: unknown, the source or target is missing). */
  canFastForward: boolean | null;
}

export interface CheckOptions {
  /** skip_ci_check: setting auto-merge passes a running pipeline. */
  skipCi?: boolean;
  /** Only the state checks (GitLab's mergeable_state?): no conflict or rebase check. */
  stateOnly?: boolean;
}

/** CheckCiStatusService: null when it passes, else ci_must_pass or ci_still_running. */
function ciCheck(f: MergeFacts): string | null {
  if (!f.settings.onlyAllowMergeIfPipelineSucceeds && !f.autoMerge) return null;
  const p = f.headPipeline;
  if (p && p.status === "success") return null;
  if (p && p.status === "skipped" && f.settings.allowMergeOnSkippedPipeline) return null;
  if (isInProgress(p)) return "ci_still_running";
  // Auto-merge alone (no project requirement) waits only for a pipeline that exists.
  if (!f.settings.onlyAllowMergeIfPipelineSucceeds && !p) return null;
  return "ci_must_pass";
}

/**
 * The first failing check in GitLab's order (MergeRequest.all_mergeability_checks and EE's
 * approval check), or null when every check passes.
 */
export function failingCheck(f: MergeFacts, o: CheckOptions = {}): string | null {
  if (f.state !== "opened") return "not_open";
  if (f.mergeAfter && f.mergeAfter.getTime() > f.now.getTime()) return "merge_time";
  if (f.draft) return "draft_status";
  if (!f.headSha) return "commits_status";
  if (f.settings.onlyAllowMergeIfAllDiscussionsAreResolved && f.unresolvedDiscussions > 0) return "discussions_not_resolved";
  if (!o.skipCi) {
    const ci = ciCheck(f);
    if (ci) return ci;
  }
  if (f.settings.approvalsBeforeMerge > f.approvals) return "not_approved";
  if (o.stateOnly) return null;
  if (RECHECK_STATUSES.includes(f.mergeStatus)) return "unchecked";
  if (hasConflictsStatus(f.mergeStatus)) return "conflict";
  if (f.settings.mergeMethod !== "merge" && f.canFastForward === false) return "need_rebase";
  return null;
}

/** DetailedMergeStatusService#execute. */
export function detailedMergeStatus(f: MergeFacts): string {
  // Closed and merged merge requests are never checked again: their state is the answer.
  if (f.state !== "opened") return "not_open";
  if (f.mergeStatus === "checking" || f.mergeStatus === "cannot_be_merged_rechecking") return "checking";
  if (f.mergeStatus === "unchecked" || f.mergeStatus === "cannot_be_merged_recheck") return "unchecked";
  return failingCheck(f) ?? "mergeable";
}

/** The caller of a read or a merge, as identity-service answered Authorize for the project. */
export interface MergeCaller {
  userId: number;
  isAdmin: boolean;
  /** The caller's level in the project (Authorize). */
  accessLevel: number;
}

/** The level protected-branch rules see: instance admins count as 60 (gateway's ruleLevel). */
export const ruleLevelOf = (c: MergeCaller): number => (c.isAdmin ? Math.max(c.accessLevel, AccessLevel.ADMIN) : c.accessLevel);

/**
 * user.can_merge (MergeRequest#can_be_merged_by?): a signed-in caller who may push to the target
 * branch or merge into it under its protection (repo-service's Branch.can_merge for the caller's
 * level); false for a missing branch or an archived project.
 */
export async function canMergeTo(deps: CollabDeps, projectId: number, project: MergeProject, branch: string, caller: MergeCaller): Promise<boolean> {
  if ((caller.userId <= 0 && !caller.isAdmin) || project.archived) return false;
  try {
    const b = await deps.repo.FindBranch({
      diskPath: project.diskPath,
      name: branch,
      defaultBranch: project.defaultBranch,
      projectId,
      accessLevel: ruleLevelOf(caller),
    });
    return b.canMerge;
  } catch {
    return false;
  }
}

/** What mergeStatusFor answers (the merge request's user-dependent and git-dependent fields). */
export interface MergeStatus {
  /** The API's merge_status. */
  mergeStatus: string;
  detailedMergeStatus: string;
  hasConflicts: boolean;
  /** user.can_merge. */
  canMerge: boolean;
  /** 0 = none. */
  headPipelineId: number;
  blockingDiscussionsResolved: boolean;
  /** The facts the checks ran on (the merge reuses them). */
  facts: MergeFacts;
  /** The git answer this read got (null when none was needed or it failed). */
  check: CheckMergeResponse | null;
}

/** The project facts mergeStatusFor needs: its disk path and merge settings (identity's Project). */
export type MergeProject = Pick<Project, "diskPath" | "mergeSettings" | "defaultBranch" | "archived">;

type MergeRow = Pick<
  MergeRequest,
  | "id"
  | "iid"
  | "projectId"
  | "state"
  | "draft"
  | "mergeStatus"
  | "headSha"
  | "mergeAfter"
  | "mergeWhenPipelineSucceeds"
  | "sourceBranch"
  | "targetBranch"
  | "sourceProjectId"
>;

/** Unresolved resolvable threads (DiscussionNote/DiffNote user notes without resolved_at). */
export async function unresolvedDiscussionCount(db: CollabDeps["prisma"] | Tx, mergeRequestId: number): Promise<number> {
  const rows = await db.note.findMany({
    where: { noteableType: "MergeRequest", noteableId: mergeRequestId, system: false, type: { in: ["DiscussionNote", "DiffNote"] }, resolvedAt: null },
    select: { discussionId: true },
    distinct: ["discussionId"],
  });
  return rows.length;
}

/**
 * Asks repo-service how the source merges into the target (GitLab's MergeabilityCheckService)
 * when the cached merge_status is stale or the merge method needs to know whether the source
 * contains the target; stores can_be_merged / cannot_be_merged unless the row moved meanwhile.
 */
async function checkGit(
  deps: CollabDeps,
  mr: MergeRow,
  project: MergeProject,
  settings: MergeSettingsView,
): Promise<{ status: string; check: CheckMergeResponse | null }> {
  const stale = RECHECK_STATUSES.includes(mr.mergeStatus);
  if (mr.state !== "opened" || !mr.headSha || (!stale && settings.mergeMethod === "merge")) return { status: mr.mergeStatus, check: null };
  let check: CheckMergeResponse;
  try {
    check = await deps.repo.CheckMerge({ diskPath: project.diskPath, targetBranch: mr.targetBranch, sourceSha: mr.headSha });
  } catch (err) {
    // A missing target branch or source commit: nothing can be merged, GitLab keeps it unchecked.
    deps.log.warn({ err, mergeRequestId: mr.id }, "merge request mergeability check failed");
    return { status: mr.mergeStatus, check: null };
  }
  if (!stale) return { status: mr.mergeStatus, check };
  const status = check.hasConflicts ? "cannot_be_merged" : "can_be_merged";
  // Compare-and-set: a push that reset the status meanwhile wins over this older answer. A row
  // another transaction holds (a change being recorded, whose event reads this status) is
  // skipped rather than waited for: the next read stores the answer.
  await deps.prisma.$executeRaw`
    UPDATE merge_requests SET merge_status = ${status}
    WHERE id IN (SELECT id FROM merge_requests WHERE id = ${mr.id} AND merge_status = ${mr.mergeStatus} AND head_sha = ${mr.headSha} FOR UPDATE SKIP LOCKED)`;
  return { status, check };
}

/** The caller of a merge request scope (mr-core's access.ts). */
export const callerOf = (scope: MergeRequestScope): MergeCaller => ({
  userId: scope.parent.userId,
  isAdmin: scope.parent.isAdmin,
  accessLevel: scope.parent.accessLevel,
});

/** The merge status of a merge request as the scope's caller sees it (what the entity and the hooks show). */
export function mergeStatusFor(deps: CollabDeps, row: MergeRow, scope: MergeRequestScope): Promise<MergeStatus> {
  return mergeStatusOf(deps, row, scope.project, callerOf(scope));
}

/**
 * The merge status fields of a merge request for `caller`: runs the git check when due (and
 * caches it), reads the head pipeline, the threads, the approvals and the target branch's
 * protection, and applies GitLab's checks.
 */
export async function mergeStatusOf(deps: CollabDeps, mr: MergeRow, project: MergeProject, caller: MergeCaller): Promise<MergeStatus> {
  const settings = mergeSettingsOf(project);
  const [git, headPipeline, unresolved, approvals, canMerge] = await Promise.all([
    checkGit(deps, mr, project, settings),
    headPipelineOf(deps.prisma, mr),
    unresolvedDiscussionCount(deps.prisma, mr.id),
    deps.prisma.mergeRequestApproval.count({ where: { mergeRequestId: mr.id } }),
    canMergeTo(deps, mr.projectId, project, mr.targetBranch, caller),
  ]);
  const facts: MergeFacts = {
    state: mr.state,
    draft: mr.draft,
    mergeStatus: git.status,
    headSha: mr.headSha,
    mergeAfter: mr.mergeAfter,
    now: new Date(),
    settings,
    unresolvedDiscussions: unresolved,
    headPipeline,
    autoMerge: mr.mergeWhenPipelineSucceeds,
    approvals,
    canFastForward: git.check ? git.check.canFastForward : null,
  };
  return statusOf(facts, { canMerge, check: git.check, headPipelineId: headPipeline?.id ?? 0 });
}

/** The answer for facts the checks ran on (the public status, the detailed one, and what they derive). */
function statusOf(facts: MergeFacts, o: Pick<MergeStatus, "canMerge" | "check" | "headPipelineId">): MergeStatus {
  return {
    mergeStatus: publicMergeStatus(facts.mergeStatus),
    detailedMergeStatus: detailedMergeStatus(facts),
    hasConflicts: hasConflictsStatus(facts.mergeStatus),
    blockingDiscussionsResolved: facts.unresolvedDiscussions === 0,
    facts,
    ...o,
  };
}

/**
 * The merge status fields of a page of merge requests, for lists: as GitLab's lists, no
 * mergeability check runs (the cached merge_status is shown; `with_merge_status_recheck` only asks
 * for one) and `user.can_merge`, which list items do not carry, is false. Pipelines, threads and
 * approvals are read with one query each for the whole page.
 */
export async function listMergeStatuses(
  db: CollabDeps["prisma"] | Tx,
  rows: readonly MergeRow[],
  projectOf: (projectId: number) => MergeProject,
): Promise<MergeStatus[]> {
  const ids = rows.map((r) => r.id);
  const heads = rows.flatMap((r) => (r.headSha ? [r.headSha] : []));
  const [pipelines, threads, approvals] = await Promise.all([
    heads.length
      ? db.ciPipeline.findMany({ where: { projectId: { in: [...new Set(rows.map((r) => r.sourceProjectId))] }, sha: { in: heads } }, orderBy: { id: "desc" } })
      : [],
    db.note.findMany({
      where: { noteableType: "MergeRequest", noteableId: { in: ids }, system: false, type: { in: ["DiscussionNote", "DiffNote"] }, resolvedAt: null },
      select: { noteableId: true, discussionId: true },
      distinct: ["noteableId", "discussionId"],
    }),
    db.mergeRequestApproval.groupBy({ by: ["mergeRequestId"], where: { mergeRequestId: { in: ids } }, _count: { _all: true } }),
  ]);
  const now = new Date();
  return rows.map((mr) => {
    const settings = mergeSettingsOf(projectOf(mr.projectId));
    // Newest first: the first match is headPipelineOf's answer.
    const headPipeline = pipelines.find((p) => isHeadPipelineOf(p, mr)) ?? null;
    const unresolved = threads.filter((t) => t.noteableId === mr.id).length;
    const facts: MergeFacts = {
      state: mr.state,
      draft: mr.draft,
      mergeStatus: mr.mergeStatus,
      headSha: mr.headSha,
      mergeAfter: mr.mergeAfter,
      now,
      settings,
      unresolvedDiscussions: unresolved,
      headPipeline,
      autoMerge: mr.mergeWhenPipelineSucceeds,
      approvals: approvals.find((a) => a.mergeRequestId === mr.id)?._count._all ?? 0,
      canFastForward: null,
    };
    return statusOf(facts, { canMerge: false, check: null, headPipelineId: headPipeline?.id ?? 0 });
  });
}
