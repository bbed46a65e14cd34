/** The statuses of an integrated error (GitLab's ErrorTracking::Error `status` enum). */
export const ERROR_STATUSES = ["unresolved", "resolved", "ignored"] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];
export const isErrorStatus = (s: string): s is ErrorStatus => (ERROR_STATUSES as readonly string[]).includes(s);

/** A path error id, or null when it cannot name a row (the caller answers `404 Not found`). */
export function errorIdOf(raw: unknown): number | null {
  const id = Number(raw);
  return Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647 ? id : null;
}
