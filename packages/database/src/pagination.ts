/**
 * The rows of one offset page as GitLab clamps its inputs: page ≥ 1, per_page 20 by default and
 * at most 100 (0 or less means the default). Shared by the services' list RPCs.
 */
export function pagination(page: number, perPage: number): { offset: number; limit: number } {
  const p = page > 0 ? Math.floor(page) : 1;
  const size = perPage > 0 ? Math.min(Math.floor(perPage), 100) : 20;
  return { offset: (p - 1) * size, limit: size };
}
