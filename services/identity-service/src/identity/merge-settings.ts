// A project's merge request settings: validation of changes (GitLab's API and model rules) and the
// row ↔ message mapping.
import { badRequest, paramError } from "@quarry/grpc";
import type { MergeSettings } from "@quarry/proto/types/identity/v1/MergeSettings";
import type { MergeSettingsUpdate__Output } from "@quarry/proto/types/identity/v1/MergeSettingsUpdate";
import type { Project } from "../generated/prisma/client.ts";

export const MERGE_METHODS = ["merge", "rebase_merge", "ff"] as const;
export const SQUASH_OPTIONS = ["never", "always", "default_on", "default_off"] as const;
/** The projects columns holding the settings. */
type MergeSettingsColumns = Partial<
  Pick<
    Project,
    | "mergeMethod"
    | "onlyAllowMergeIfPipelineSucceeds"
    | "allowMergeOnSkippedPipeline"
    | "onlyAllowMergeIfAllDiscussionsAreResolved"
    | "removeSourceBranchAfterMerge"
    | "squashOption"
    | "resetApprovalsOnPush"
    | "mergeCommitTemplate"
    | "squashCommitTemplate"
    | "approvalsBeforeMerge"
    | "autocloseReferencedIssues"
    | "mergeRequestsAuthorApproval"
    | "mergeRequestsDisableCommittersApproval"
  >
>;
/** GitLab's ProjectSetting validates both templates to at most 500 characters. */
const TEMPLATE_MAX = 500;

export function mergeSettingsToProto(p: Project): MergeSettings {
  return {
    mergeMethod: p.mergeMethod,
    onlyAllowMergeIfPipelineSucceeds: p.onlyAllowMergeIfPipelineSucceeds,
    allowMergeOnSkippedPipeline: p.allowMergeOnSkippedPipeline,
    onlyAllowMergeIfAllDiscussionsAreResolved: p.onlyAllowMergeIfAllDiscussionsAreResolved,
    removeSourceBranchAfterMerge: p.removeSourceBranchAfterMerge,
    squashOption: p.squashOption,
    resetApprovalsOnPush: p.resetApprovalsOnPush,
    mergeCommitTemplate: p.mergeCommitTemplate,
    squashCommitTemplate: p.squashCommitTemplate,
    approvalsBeforeMerge: p.approvalsBeforeMerge,
    autocloseReferencedIssues: p.autocloseReferencedIssues,
    mergeRequestsAuthorApproval: p.mergeRequestsAuthorApproval,
    mergeRequestsDisableCommittersApproval: p.mergeRequestsDisableCommittersApproval,
  };
}

/**
 * Validates a settings change and returns the columns it writes (only the fields given). Enum values
 * fail like Grape's `values:` (400 `{"error":"merge_method does not have a valid value"}`), the rest
 * like the model's validations (400 `{"message":{field:[…]}}`).
 */
export function mergeSettingsData(u: MergeSettingsUpdate__Output | null | undefined): MergeSettingsColumns {
  if (!u) return {};
  if (u.mergeMethod !== undefined && !(MERGE_METHODS as readonly string[]).includes(u.mergeMethod)) {
    throw paramError("merge_method does not have a valid value");
  }
  if (u.squashOption !== undefined && !(SQUASH_OPTIONS as readonly string[]).includes(u.squashOption)) {
    throw paramError("squash_option does not have a valid value");
  }
  const invalid: Record<string, string[]> = {};
  if (u.approvalsBeforeMerge !== undefined && u.approvalsBeforeMerge < 0) {
    invalid.approvals_before_merge = ["must be greater than or equal to 0"];
  }
  for (const [field, value] of [
    ["merge_commit_template", u.mergeCommitTemplate],
    ["squash_commit_template", u.squashCommitTemplate],
  ] as const) {
    if (value !== undefined && [...value].length > TEMPLATE_MAX) {
      invalid[`project_setting.${field}`] = [`is too long (maximum is ${TEMPLATE_MAX} characters)`];
    }
  }
  if (Object.keys(invalid).length) throw badRequest(invalid);
  const data: MergeSettingsColumns = {};
  if (u.mergeMethod !== undefined) data.mergeMethod = u.mergeMethod;
  if (u.onlyAllowMergeIfPipelineSucceeds !== undefined) data.onlyAllowMergeIfPipelineSucceeds = u.onlyAllowMergeIfPipelineSucceeds;
  if (u.allowMergeOnSkippedPipeline !== undefined) data.allowMergeOnSkippedPipeline = u.allowMergeOnSkippedPipeline;
  if (u.onlyAllowMergeIfAllDiscussionsAreResolved !== undefined) {
    data.onlyAllowMergeIfAllDiscussionsAreResolved = u.onlyAllowMergeIfAllDiscussionsAreResolved;
  }
  if (u.removeSourceBranchAfterMerge !== undefined) data.removeSourceBranchAfterMerge = u.removeSourceBranchAfterMerge;
  if (u.squashOption !== undefined) data.squashOption = u.squashOption;
  if (u.resetApprovalsOnPush !== undefined) data.resetApprovalsOnPush = u.resetApprovalsOnPush;
  if (u.mergeCommitTemplate !== undefined) data.mergeCommitTemplate = u.mergeCommitTemplate;
  if (u.squashCommitTemplate !== undefined) data.squashCommitTemplate = u.squashCommitTemplate;
  if (u.approvalsBeforeMerge !== undefined) data.approvalsBeforeMerge = u.approvalsBeforeMerge;
  if (u.autocloseReferencedIssues !== undefined) data.autocloseReferencedIssues = u.autocloseReferencedIssues;
  if (u.mergeRequestsAuthorApproval !== undefined) data.mergeRequestsAuthorApproval = u.mergeRequestsAuthorApproval;
  if (u.mergeRequestsDisableCommittersApproval !== undefined) {
    data.mergeRequestsDisableCommittersApproval = u.mergeRequestsDisableCommittersApproval;
  }
  return data;
}
