/**
 * The job payload of GitLab's runner API (`POST /api/v4/jobs/request`, entity
 * API::Entities::Ci::JobRequest::Response); only the fields this runner reads are typed, the
 * rest (image, services, cache, credentials) is accepted and ignored.
 */
export interface JobPayload {
  id: number;
  token: string;
  allow_git_fetch?: boolean;
  job_info: { id?: number; name: string; stage: string; project_id: number; project_name: string };
  git_info: GitInfo;
  runner_info: { timeout?: number; runner_session_url?: string | null };
  variables?: JobVariable[];
  steps?: JobStep[];
  artifacts?: ArtifactSpec[] | null;
  dependencies?: JobDependency[];
  features?: Record<string, unknown>;
}

export interface GitInfo {
  repo_url: string;
  ref: string;
  sha: string;
  before_sha?: string;
  ref_type?: "branch" | "tag" | string;
  refspecs?: string[];
  depth?: number;
}

export interface JobVariable {
  key: string;
  value: string;
  public?: boolean;
  masked?: boolean;
  file?: boolean;
  raw?: boolean;
}

export type StepWhen = "on_success" | "on_failure" | "always";

export interface JobStep {
  name: string;
  script: string[];
  timeout?: number;
  when?: StepWhen;
  allow_failure?: boolean;
}

export type ArtifactWhen = "on_success" | "on_failure" | "always";

export interface ArtifactSpec {
  name?: string | null;
  untracked?: boolean;
  paths?: string[] | null;
  exclude?: string[] | null;
  when?: ArtifactWhen | null;
  artifact_type?: string | null;
  artifact_format?: "zip" | "gzip" | "raw" | string | null;
  expire_in?: string | null;
}

export interface JobDependency {
  id: number;
  name: string;
  token?: string;
  artifacts_file?: { filename: string; size: number } | null;
}

/** Final and keepalive states of `PUT /api/v4/jobs/:id`. */
export type JobState = "running" | "success" | "failed" | "canceled";

/** The failure reasons gitlab-runner reports (common/network.go). */
export type FailureReason = "script_failure" | "runner_system_failure" | "job_execution_timeout" | "unknown_failure";
