// Merge request pipelines (GitLab's detached merge request pipelines): what a pipeline keeps of
// its merge request, and the CI_MERGE_REQUEST_* variables (Ci::Pipeline#merge_request_variables
// and MergeRequest#predefined_variables) derived from it.
import type { MergeRequestEvent } from "@quarry/bus";
import type { Pipeline } from "../generated/prisma/client.ts";

/** GitLab truncates CI_MERGE_REQUEST_DESCRIPTION to this many characters. */
export const DESCRIPTION_LIMIT = 2700;

/** The merge request as its pipeline saw it at creation (the pipeline's `merge_request` column). */
export interface MergeRequestSnapshot {
  id: number;
  iid: number;
  title: string;
  description: string;
  source_branch: string;
  source_project_id: number;
  target_branch: string;
  target_project_id: number;
  state: string;
  merge_status: string;
  detailed_merge_status: string;
  /** Web page, as a path below the external URL. */
  url: string;
  /** The merge base with the target branch (CI_MERGE_REQUEST_DIFF_BASE_SHA). */
  diff_base_sha: string;
  labels: string[];
  assignee_usernames: string[];
  milestone_title: string | null;
  draft: boolean;
}

/** refs/merge-requests/<iid>/head: a merge request pipeline's `ref`, as GitLab stores it. */
export const mergeRequestHeadRef = (iid: number) => `refs/merge-requests/${iid}/head`;

export function mergeRequestSnapshot(event: MergeRequestEvent): MergeRequestSnapshot {
  const a = event.object_attributes;
  const str = (v: unknown, fallback = "") => (typeof v === "string" ? v : fallback);
  return {
    id: a.id,
    iid: a.iid,
    title: event.ci.title,
    description: event.ci.description,
    source_branch: a.source_branch,
    source_project_id: Number(a.source_project_id ?? event.project_id),
    target_branch: a.target_branch,
    target_project_id: Number(a.target_project_id ?? event.project_id),
    state: str(a.state, "opened"),
    merge_status: str(a.merge_status, "unchecked"),
    detailed_merge_status: str(a.detailed_merge_status, "checking"),
    url: str(a.url),
    diff_base_sha: event.ci.diff_base_sha,
    labels: event.ci.labels,
    assignee_usernames: event.ci.assignee_usernames,
    milestone_title: event.ci.milestone_title,
    draft: event.ci.draft,
  };
}

/** The merge request a pipeline was created for, or null for other pipelines. */
export const pipelineMergeRequest = (pipeline: Pick<Pipeline, "mergeRequest">): MergeRequestSnapshot | null =>
  (pipeline.mergeRequest as MergeRequestSnapshot | null) ?? null;

/**
 * The ref jobs see as CI_COMMIT_REF_NAME and hooks as `ref`: the source branch of a merge request
 * pipeline (GitLab's Ci::Pipeline#source_ref), else the pipeline's ref.
 */
export const sourceRef = (pipeline: Pick<Pipeline, "ref" | "mergeRequest">): string => pipelineMergeRequest(pipeline)?.source_branch ?? pipeline.ref;

/**
 * CI_MERGE_REQUEST_* of a detached merge request pipeline. `projectUrl` is the project's web URL
 * (empty while the pipeline is compiled: rules see every other value). The source and target
 * branch shas are empty, as GitLab leaves them for detached pipelines (they are set only for
 * merged results pipelines). Source and target project are the project (no forks here).
 */
export function mergeRequestVariables(mr: MergeRequestSnapshot, projectPath: string, projectUrl: string): Record<string, string> {
  const truncated = mr.description.length > DESCRIPTION_LIMIT;
  const vars: Record<string, string> = {
    CI_MERGE_REQUEST_ID: String(mr.id),
    CI_MERGE_REQUEST_IID: String(mr.iid),
    CI_MERGE_REQUEST_REF_PATH: mergeRequestHeadRef(mr.iid),
    CI_MERGE_REQUEST_PROJECT_ID: String(mr.target_project_id),
    CI_MERGE_REQUEST_PROJECT_PATH: projectPath,
    CI_MERGE_REQUEST_PROJECT_URL: projectUrl,
    CI_MERGE_REQUEST_TARGET_BRANCH_NAME: mr.target_branch,
    CI_MERGE_REQUEST_TARGET_BRANCH_SHA: "",
    CI_MERGE_REQUEST_TITLE: mr.title,
    CI_MERGE_REQUEST_DRAFT: String(mr.draft),
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: mr.source_branch,
    CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: "",
    CI_MERGE_REQUEST_SOURCE_PROJECT_ID: String(mr.source_project_id),
    CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: projectPath,
    CI_MERGE_REQUEST_SOURCE_PROJECT_URL: projectUrl,
    CI_MERGE_REQUEST_DIFF_BASE_SHA: mr.diff_base_sha,
    CI_MERGE_REQUEST_DESCRIPTION: truncated ? mr.description.slice(0, DESCRIPTION_LIMIT) : mr.description,
    CI_MERGE_REQUEST_DESCRIPTION_IS_TRUNCATED: String(truncated),
    CI_MERGE_REQUEST_EVENT_TYPE: "detached",
  };
  // GitLab sets these only when there is something to list.
  if (mr.assignee_usernames.length) vars.CI_MERGE_REQUEST_ASSIGNEES = mr.assignee_usernames.join(",");
  if (mr.milestone_title) vars.CI_MERGE_REQUEST_MILESTONE = mr.milestone_title;
  if (mr.labels.length) vars.CI_MERGE_REQUEST_LABELS = [...mr.labels].sort().join(",");
  return vars;
}
