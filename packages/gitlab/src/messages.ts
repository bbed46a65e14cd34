/**
 * GitLab's `not_found!(resource)` wording: `404 <What> Not Found`, and `404 Not Found` without a
 * resource (also the default body of any 404).
 */
export const notFoundMessage = (what?: string): string => (what ? `404 ${what} Not Found` : "404 Not Found");

/** What GitLab answers for ActiveRecord::RecordNotFound: `404 Not found` (lower-case f). */
export const RECORD_NOT_FOUND_MESSAGE = "404 Not found";
