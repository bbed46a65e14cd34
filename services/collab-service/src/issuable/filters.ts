import type { CollabDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";

/**
 * IssuableFinder's filters that issues and merge requests share (GitLab runs both through the same
 * finder): one where-shape both models accept, since their label, milestone and text columns
 * have the same names.
 */
export type IssuableWhere = Prisma.IssueWhereInput & Prisma.MergeRequestWhereInput;

/** GitLab's FILTER_NONE / FILTER_ANY, compared case-insensitively. */
export const NONE = "none";
export const ANY = "any";
export const isWord = (v: string | undefined, word: string) => v !== undefined && v.toLowerCase() === word;

export const startOfDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
export const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);

/** `milestone=` by title or one of None, Any, Upcoming, Started. */
export function milestoneWhere(value: string, now: Date): IssuableWhere {
  const today = startOfDay(now);
  if (isWord(value, NONE)) return { milestoneId: null };
  if (isWord(value, ANY)) return { milestoneId: { not: null } };
  if (isWord(value, "upcoming")) return { milestone: { state: "active", dueDate: { gt: today } } };
  if (isWord(value, "started")) return { milestone: { state: "active", startDate: { lte: today } } };
  return { milestone: { title: value } };
}

/** Words of a search term in the chosen columns (every word, case-insensitively). */
export function searchWhere(search: string, columns: string[]): IssuableWhere | null {
  const words = search.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return null;
  const cols = columns.length ? columns : ["title", "description"];
  return { OR: cols.map((c) => ({ AND: words.map((w) => ({ [c]: { contains: w, mode: "insensitive" } })) })) };
}

/**
 * `labels=` (every title required; None/Any, in any case, mean without/with a label) and
 * `not[labels]=` (none of these titles).
 */
export function labelsWhere(labels: string[], notLabels: string[]): IssuableWhere[] {
  const f: IssuableWhere[] = [];
  const titles = labels.map((l) => l.trim()).filter(Boolean);
  if (titles.some((l) => isWord(l, NONE))) f.push({ labels: { none: {} } });
  else if (titles.some((l) => isWord(l, ANY))) f.push({ labels: { some: {} } });
  else for (const title of titles) f.push({ labels: { some: { label: { title } } } });
  const without = notLabels.map((l) => l.trim()).filter(Boolean);
  if (without.length) f.push({ labels: { none: { label: { title: { in: without } } } } });
  return f;
}

/** created_after/before, updated_after/before: inclusive bounds, ISO 8601 (empty = none). */
export function dateBoundsWhere(b: { createdAfter: string; createdBefore: string; updatedAfter: string; updatedBefore: string }): IssuableWhere[] {
  const f: IssuableWhere[] = [];
  if (b.createdAfter) f.push({ createdAt: { gte: new Date(b.createdAfter) } });
  if (b.createdBefore) f.push({ createdAt: { lte: new Date(b.createdBefore) } });
  if (b.updatedAfter) f.push({ updatedAt: { gte: new Date(b.updatedAfter) } });
  if (b.updatedBefore) f.push({ updatedAt: { lte: new Date(b.updatedBefore) } });
  return f;
}

/**
 * `my_reaction_emoji=` (name, None or Any) and `not[my_reaction_emoji]=`: the caller's own awards
 * on this kind of issuable.
 */
export async function reactionWhere(
  deps: CollabDeps,
  awardableType: "Issue" | "MergeRequest",
  userId: number,
  reaction: string | undefined,
  notReaction: string | undefined,
): Promise<IssuableWhere[]> {
  const awarded = async (name: string | null) =>
    (
      await deps.prisma.awardEmoji.findMany({
        where: { userId, awardableType, ...(name ? { name } : {}) },
        select: { awardableId: true },
      })
    ).map((a) => a.awardableId);
  const f: IssuableWhere[] = [];
  if (reaction !== undefined && reaction !== "") {
    if (isWord(reaction, NONE)) f.push({ id: { notIn: await awarded(null) } });
    else if (isWord(reaction, ANY)) f.push({ id: { in: await awarded(null) } });
    else f.push({ id: { in: await awarded(reaction) } });
  }
  if (notReaction) f.push({ id: { notIn: await awarded(notReaction) } });
  return f;
}
