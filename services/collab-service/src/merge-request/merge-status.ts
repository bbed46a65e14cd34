import type { CollabDeps } from "../deps.ts";
import type { MergeRequestScope } from "./access.ts";
import type { MergeRequestRowFull } from "./entity.ts";

/** What a merge request's mergeability looks like to a caller (MergeRequest#public_merge_status, DetailedMergeStatusService). */
export interface MergeStatus {
  /** GitLab's deprecated merge_status. */
  mergeStatus: string;
  /** GitLab's detailed_merge_status. */
  detailedMergeStatus: string;
  /** cannot_be_merged?. */
  hasConflicts: boolean;
  /** can_be_merged_by?(caller). */
  canMerge: boolean;
  /** The head pipeline's id; 0 = none. */
  headPipelineId: number;
}

const DETAILED: Record<string, string> = {
  unchecked: "unchecked",
  checking: "checking",
  can_be_merged: "mergeable",
  cannot_be_merged: "conflict",
  cannot_be_merged_recheck: "checking",
};

/**
 * The merge status of a merge request as `actor` sees it. First body: not_open unless opened,
 * draft_status for drafts, else from the stored merge_status (helper D replaces this with the
 * full DetailedMergeStatusService).
 */
export async function mergeStatusFor(_deps: CollabDeps, row: MergeRequestRowFull, _actor: MergeRequestScope): Promise<MergeStatus> {
  const hasConflicts = row.mergeStatus === "cannot_be_merged";
  const base = { mergeStatus: row.mergeStatus, hasConflicts, canMerge: false, headPipelineId: 0 };
  if (row.state !== "opened") return { ...base, detailedMergeStatus: "not_open" };
  if (row.draft) return { ...base, detailedMergeStatus: "draft_status" };
  return { ...base, detailedMergeStatus: DETAILED[row.mergeStatus] ?? "unchecked" };
}
