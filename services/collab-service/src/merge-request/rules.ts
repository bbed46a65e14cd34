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
