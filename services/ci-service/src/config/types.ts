/** Values a `.gitlab-ci.yml` compiles to, named after GitLab's build attributes. */

export type When = "on_success" | "on_failure" | "always" | "manual" | "delayed" | "never";

/** Pipeline sources as GitLab spells them (`CI_PIPELINE_SOURCE`). */
export type PipelineSource =
  | "push"
  | "web"
  | "api"
  | "trigger"
  | "schedule"
  | "pipeline"
  | "parent_pipeline"
  | "merge_request_event"
  | "external"
  | "chat"
  | "webide"
  | "external_pull_request_event"
  | "ondemand_dast_scan";

export interface PipelineContext {
  /** Branch or tag name (without refs/heads/ or refs/tags/). */
  ref: string;
  /** True when `ref` is a tag. */
  tag: boolean;
  sha: string;
  source: PipelineSource;
  defaultBranch: string;
  /**
   * Pipeline variables and predefined CI_* variables. CI_COMMIT_BRANCH, CI_COMMIT_TAG,
   * CI_COMMIT_REF_NAME, CI_COMMIT_SHA, CI_PIPELINE_SOURCE and CI_DEFAULT_BRANCH are derived
   * from the fields above when absent.
   */
  variables: Record<string, string>;
  /** Full path of the project, for `only: ["main@group/project"]` refs. */
  projectPath?: string;
  /** Reads a repository file for `include: local:`; null when it does not exist. */
  readFile?: (path: string) => string | null;
  /**
   * Paths changed by the push, for `rules:changes` / `only:changes`. Absent means unknown,
   * and then (as GitLab does for pipelines without a push) `changes` always matches.
   */
  changedPaths?: readonly string[];
  /** Repository file paths, for `rules:exists`; absent means unknown and `exists` matches. */
  repositoryPaths?: readonly string[];
}

export type AllowFailure = boolean | { exitCodes: number[] };

export interface CompiledNeed {
  name: string;
  artifacts: boolean;
  optional: boolean;
}

export interface CompiledRetry {
  max: number;
  when: string[];
  exitCodes: number[];
}

export interface CompiledArtifacts {
  name: string | null;
  paths: string[];
  exclude: string[];
  untracked: boolean;
  /**
   * Seconds until expiry; null means `expire_in: never`. Undefined when the file does not
   * say, so the instance default applies.
   */
  expireInSeconds?: number | null;
  when: "on_success" | "on_failure" | "always";
  exposeAs: string | null;
  /** Report files by type (`junit`, `dotenv`, ...). */
  reports: { junit: string[] } & Record<string, string[]>;
}

export interface CompiledEnvironment {
  name: string;
  url?: string;
  action?: string;
}

interface CompiledProcessable {
  name: string;
  stage: string;
  stageIdx: number;
  when: Exclude<When, "never">;
  allowFailure: AllowFailure;
  /** null: no `needs`, the job waits for its previous stages; [] starts immediately. */
  needs: CompiledNeed[] | null;
  /** Job variables: global `variables` with the job's own (and its matching rule's) on top. */
  variables: Record<string, string>;
  /** Seconds for `when: delayed`. */
  startInSeconds: number | null;
  interruptible: boolean | null;
  resourceGroup: string | null;
  environment: CompiledEnvironment | null;
}

/** What a job runs and keeps: the same in a job's definition and in each job it compiles to. */
export interface JobBody {
  script: string[];
  beforeScript: string[];
  afterScript: string[];
  /** null: artifacts of every job in previous stages. */
  dependencies: string[] | null;
  tags: string[];
  timeoutSeconds: number | null;
  retry: CompiledRetry | null;
  artifacts: CompiledArtifacts | null;
  image: string | null;
  services: string[];
  /** The `coverage` regular expression without its slashes. */
  coverage: string | null;
}

export interface CompiledJob extends CompiledProcessable, JobBody {
  /** `parallel` index and total (CI_NODE_INDEX / CI_NODE_TOTAL), null when not parallel. */
  parallel: { index: number; total: number } | null;
}

export type TriggerInclude = { local: string } | { artifact: string; job: string };

export interface CompiledBridge extends CompiledProcessable {
  /** Child pipeline configuration files (`trigger: include:`). */
  include: TriggerInclude[];
  /** Downstream project of a multi-project trigger. */
  project: string | null;
  branch: string | null;
  /** "depend": the bridge mirrors the downstream pipeline's status. */
  strategy: "depend" | null;
  forward: { yamlVariables: boolean; pipelineVariables: boolean };
}

export interface CompiledWorkflow {
  name: string | null;
  /** Variables set by the matching `workflow:rules` rule (already merged into jobs). */
  variables: Record<string, string>;
}

export interface CompiledPipeline {
  stages: string[];
  jobs: CompiledJob[];
  bridges: CompiledBridge[];
  workflow: CompiledWorkflow;
}

/**
 * `pipeline`: create it. `filtered`: no pipeline, and no error either (workflow rules or
 * job rules left nothing to run). `invalid`: GitLab's yaml_errors.
 */
export type CompileResult =
  | { status: "pipeline"; pipeline: CompiledPipeline }
  | { status: "filtered"; reason: "workflow_rules" | "no_jobs"; message: string }
  | { status: "invalid"; errors: string[] };
