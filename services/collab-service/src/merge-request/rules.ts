import { ServiceError, status } from "@quarry/grpc";

/**
 * MergeRequest::DRAFT_REGEX: a title starting with `Draft:`, `[Draft]` or `(Draft)` in any case
 * (GitLab dropped the WIP prefixes in 16.0).
 */
const DRAFT_PREFIX = /^(\[draft\]|\(draft\)|draft:)+\s*/i;

/** Whether a title makes its merge request a draft. */
export const isDraftTitle = (title: string): boolean => DRAFT_PREFIX.test(title);

/** MergeRequest.draftless_title: the title without its draft prefixes. */
export const draftlessTitle = (title: string): string => title.replace(DRAFT_PREFIX, "");

/** MergeRequest.draft_title: `Draft: ` before the draftless title. */
export const draftTitle = (title: string): string => `Draft: ${draftlessTitle(title)}`;

/** MergeRequest#to_reference: `!iid`. */
export const mergeRequestReference = (iid: number): string => `!${iid}`;

/** MergeRequest's description limit (Issuable::DESCRIPTION_LENGTH_MAX). */
export const DESCRIPTION_MAX = 1_048_576;

/** The model's validation of a description that is too long, as GitLab words it. */
export const descriptionTooLong = (description: string | null | undefined): boolean => (description ?? "").length > DESCRIPTION_MAX;

/**
 * handle_merge_request_errors!' 422 for :project_access, :branch_conflict, :validate_fork and
 * :base errors: `{"message": [reason]}`.
 */
export const unprocessable = (reason: string) => new ServiceError(status.FAILED_PRECONDITION, { message: [reason] }, 422);

/** MergeRequest#validate_branches' :branch_conflict (422 since GitLab moved it off :validate_branches' 409). */
export const sameBranchRefusal = () => unprocessable("You can't use same project/branch for source and target");
