import type { PipelineContext } from "./types.ts";

/** GitLab's CI_COMMIT_REF_SLUG: lowercased, non-alphanumerics to "-", at most 63 characters. */
export function refSlug(ref: string): string {
  return ref
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "-")
    .slice(0, 63)
    .replace(/^-+|-+$/g, "");
}

/**
 * The predefined variables the context itself determines. Rules are evaluated with these,
 * overridden by the caller's `variables` (which may carry the rest: CI_PROJECT_ID, ...).
 */
export function predefinedVariables(ctx: PipelineContext): Record<string, string> {
  const vars: Record<string, string> = {
    CI: "true",
    GITLAB_CI: "true",
    CI_COMMIT_REF_NAME: ctx.ref,
    CI_COMMIT_REF_SLUG: refSlug(ctx.ref),
    CI_COMMIT_SHA: ctx.sha,
    CI_COMMIT_SHORT_SHA: ctx.sha.slice(0, 8),
    CI_PIPELINE_SOURCE: ctx.source,
    CI_DEFAULT_BRANCH: ctx.defaultBranch,
  };
  // Branch pipelines have CI_COMMIT_BRANCH, tag pipelines CI_COMMIT_TAG; merge request
  // pipelines have neither.
  if (ctx.tag) vars.CI_COMMIT_TAG = ctx.ref;
  else if (ctx.source !== "merge_request_event") vars.CI_COMMIT_BRANCH = ctx.ref;
  if (ctx.projectPath) vars.CI_PROJECT_PATH = ctx.projectPath;
  return vars;
}
