import type { Pipeline__Output as Pipeline } from "@quarry/proto/types/ci/v1/Pipeline";
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import { userBasic } from "./user.ts";
import { orNull, webUrl, type Urls } from "./urls.ts";

/**
 * Where a project's CI pages are: the project's current path for its own pipelines, the path a
 * pipeline of another project was created under otherwise (the message's snapshot).
 */
export interface CiUrls extends Urls {
  projectId: number;
  projectPath: string;
}

export const ciProjectPath = (u: CiUrls, projectId: number, snapshot: string) => (projectId === u.projectId ? u.projectPath : snapshot);

export const pipelineWebUrl = (u: CiUrls, p: Pipeline) => webUrl(u, `${ciProjectPath(u, p.projectId, p.projectPath)}/-/pipelines/${p.id}`);

/** GitLab's PipelineBasic: what jobs, bridges and commits embed. */
export function pipelineBasic(p: Pipeline, u: CiUrls) {
  return {
    id: p.id,
    iid: p.iid,
    project_id: p.projectId,
    sha: p.sha,
    ref: p.ref,
    status: p.status,
    source: p.source,
    created_at: orNull(p.createdAt),
    updated_at: orNull(p.updatedAt),
    web_url: pipelineWebUrl(u, p),
  };
}

/** PipelineBasicWithMetadata: the items of GET /projects/:id/pipelines. */
export function pipelineListItem(p: Pipeline, u: CiUrls) {
  return { ...pipelineBasic(p, u), name: orNull(p.name) };
}

/** Illustrations of the statuses that have one (Gitlab::Ci::Status::*#illustration). */
const ILLUSTRATIONS: Record<string, { image: string; size: string; title: string; content?: string }> = {
  created: {
    image: "illustrations/job_not_triggered.svg",
    size: "svg-306",
    title: "This job has not been triggered yet",
    content: "This job depends on upstream jobs that need to succeed in order for this job to be triggered",
  },
  waiting_for_resource: {
    image: "illustrations/pending_job_empty.svg",
    size: "svg-430",
    title: "This job is waiting for resource: ",
  },
  preparing: {
    image: "illustrations/pending_job_empty.svg",
    size: "svg-430",
    title: "This job is preparing to start",
    content: "This job is performing tasks that must complete before it can start",
  },
  pending: {
    image: "illustrations/pending_job_empty.svg",
    size: "svg-430",
    title: "This job has not started yet",
    content: "This job is in pending state and is waiting to be picked by a runner",
  },
  skipped: { image: "illustrations/skipped-job_empty.svg", size: "svg-430", title: "This job has been skipped" },
  manual: {
    image: "illustrations/manual_action.svg",
    size: "svg-394",
    title: "This job requires a manual action",
    content: "This job requires manual intervention to start. Before starting this job, you can add variables below for last-minute configuration changes.",
  },
  scheduled: {
    image: "illustrations/illustrations_scheduled-job_countdown.svg",
    size: "svg-394",
    title: "This is a delayed job to run in %{remainingTime}",
    content:
      "This job will automatically run after its timer finishes. Often they are used for incremental roll-out deploys to production environments. When unscheduled it converts into a manual action.",
  },
};

/** The core status of each value: text, label (also the tooltip) and icon (Gitlab::Ci::Status::*). */
const CORE_STATUSES: Record<string, { text: string; label: string; icon: string; favicon: string }> = {
  created: { text: "Created", label: "created", icon: "status_created", favicon: "favicon_status_created" },
  waiting_for_resource: { text: "Waiting", label: "waiting for resource", icon: "status_pending", favicon: "favicon_status_pending" },
  preparing: { text: "Preparing", label: "preparing", icon: "status_preparing", favicon: "favicon_status_preparing" },
  pending: { text: "Pending", label: "pending", icon: "status_pending", favicon: "favicon_status_pending" },
  running: { text: "Running", label: "running", icon: "status_running", favicon: "favicon_status_running" },
  success: { text: "Passed", label: "passed", icon: "status_success", favicon: "favicon_status_success" },
  failed: { text: "Failed", label: "failed", icon: "status_failed", favicon: "favicon_status_failed" },
  canceling: { text: "Canceling", label: "canceling", icon: "status_canceled", favicon: "favicon_status_canceled" },
  canceled: { text: "Canceled", label: "canceled", icon: "status_canceled", favicon: "favicon_status_canceled" },
  skipped: { text: "Skipped", label: "skipped", icon: "status_skipped", favicon: "favicon_status_skipped" },
  manual: { text: "Manual", label: "manual action", icon: "status_manual", favicon: "favicon_status_manual" },
  scheduled: { text: "Scheduled", label: "scheduled", icon: "status_scheduled", favicon: "favicon_status_scheduled" },
};

/**
 * A pipeline's DetailedStatusEntity as Gitlab::Ci::Status::Pipeline::Factory builds it: the core
 * status, extended by "passed with warnings", "delayed" (scheduled) or "blocked" (manual). The
 * extensions replace text and label, not the tooltip, which stays the core label.
 */
export function pipelineDetailedStatus(p: Pipeline, u: CiUrls) {
  const core = CORE_STATUSES[p.status] ?? CORE_STATUSES.created!;
  const illustration = ILLUSTRATIONS[p.status];
  const status = { text: core.text, label: core.label, icon: core.icon, group: p.status in CORE_STATUSES ? p.status : "created" };
  if (p.status === "success" && p.warnings)
    Object.assign(status, { text: "Warning", label: "passed with warnings", icon: "status_warning", group: "success-with-warnings" });
  if (p.status === "scheduled") Object.assign(status, { text: "Delayed", label: "waiting for delayed job" });
  if (p.status === "manual") Object.assign(status, { text: "Blocked", label: "waiting for manual action" });
  return {
    icon: status.icon,
    text: status.text,
    label: status.label,
    group: status.group,
    tooltip: core.label,
    has_details: true,
    details_path: `/${ciProjectPath(u, p.projectId, p.projectPath)}/-/pipelines/${p.id}`,
    illustration: illustration ? { ...illustration, image: `/assets/${illustration.image}` } : null,
    favicon: `/assets/ci_favicons/${core.favicon}.png`,
  };
}

/**
 * The single pipeline (PipelineWithMetadata). Durations are whole seconds, as GitLab stores them:
 * `duration` once the pipeline has finished, `queued_duration` null when it started at once;
 * `coverage` is the presenter's two-decimal string.
 */
export function pipelineEntity(p: Pipeline, user: User | null, u: CiUrls) {
  const queued = p.queuedDuration === undefined ? 0 : Math.trunc(p.queuedDuration);
  return {
    ...pipelineBasic(p, u),
    before_sha: p.beforeSha,
    tag: p.tag,
    yaml_errors: orNull(p.yamlErrors),
    user: user ? userBasic(user, u) : null,
    started_at: orNull(p.startedAt),
    finished_at: orNull(p.finishedAt),
    committed_at: orNull(p.committedAt),
    duration: p.finishedAt && p.duration !== undefined ? Math.round(p.duration) : null,
    queued_duration: queued || null,
    coverage: p.coverage === undefined ? null : p.coverage.toFixed(2),
    detailed_status: pipelineDetailedStatus(p, u),
    archived: false,
    name: orNull(p.name),
  };
}
