import type { Prisma } from "../generated/prisma/client.ts";

/** GitLab's Gitlab::SQL::Pattern: words shorter than this are not matched partially. */
const MIN_CHARS_FOR_PARTIAL_MATCHING = 3;

/**
 * `Label.search(query)` = `fuzzy_search(query, [:title, :description])`: every word of at least three
 * characters must occur (case-insensitively) in the same column; a query without such words must
 * equal a column, case-insensitively.
 */
export function labelSearchWhere(search: string): Prisma.LabelWhereInput | undefined {
  return fuzzySearchWhere(search) as Prisma.LabelWhereInput | undefined;
}

/** The same fuzzy search on any model with `title` and `description` (labels, milestones). */
export function fuzzySearchWhere(search: string): Record<string, unknown> | undefined {
  const query = search.trim().replace(/\s+/g, " ");
  if (!query) return undefined;
  const words = query.split(" ").filter((w) => w.length >= MIN_CHARS_FOR_PARTIAL_MATCHING);
  const columns = ["title", "description"] as const;
  if (words.length === 0) return { OR: columns.map((c) => ({ [c]: { equals: query, mode: "insensitive" } })) };
  return { OR: columns.map((c) => ({ AND: words.map((w) => ({ [c]: { contains: w, mode: "insensitive" } })) })) };
}
