// Group storage statistics: GitLab's Group.with_statistics (the sums of the group's own projects'
// project_statistics rows) and, for top-level groups, root_storage_statistics (every project of
// the hierarchy). Sizes Quarry does not keep (LFS, packages, snippets, registry) are 0.
import type { GroupStatistics } from "@quarry/proto/types/identity/v1/GroupStatistics";
import type { PrismaClient, Tx } from "../deps.ts";
import { storageFigures } from "./project-statistics.ts";

type Db = PrismaClient | Tx;

interface Sums {
  repository_size: bigint | null;
  wiki_size: bigint | null;
  job_artifacts_size: bigint | null;
  uploads_size: bigint | null;
}

function toProto(s: Sums | undefined): GroupStatistics {
  const n = (v: bigint | null | undefined) => Number(v ?? 0);
  return storageFigures({
    repositorySize: n(s?.repository_size),
    wikiSize: n(s?.wiki_size),
    jobArtifactsSize: n(s?.job_artifacts_size),
    uploadsSize: n(s?.uploads_size),
  });
}

/** Per group id: its own projects' sums. */
export async function groupStatistics(db: Db, groupIds: number[]): Promise<Map<number, GroupStatistics>> {
  const out = new Map<number, GroupStatistics>();
  if (!groupIds.length) return out;
  const rows = await db.$queryRaw<(Sums & { id: number })[]>`
    SELECT p.namespace_id AS id, SUM(s.repository_size)::bigint AS repository_size, SUM(s.wiki_size)::bigint AS wiki_size,
           SUM(s.job_artifacts_size)::bigint AS job_artifacts_size, SUM(s.uploads_size)::bigint AS uploads_size
    FROM projects p JOIN project_statistics s ON s.project_id = p.id
    WHERE p.namespace_id = ANY(${groupIds}::int[]) GROUP BY p.namespace_id`;
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  for (const id of groupIds) out.set(id, toProto(byId.get(id)));
  return out;
}

/** Per top-level group id: the sums over every project in its hierarchy. */
export async function rootStorageStatistics(db: Db, rootIds: number[]): Promise<Map<number, GroupStatistics>> {
  const out = new Map<number, GroupStatistics>();
  if (!rootIds.length) return out;
  const rows = await db.$queryRaw<(Sums & { id: number })[]>`
    SELECT n.traversal_ids[1] AS id, SUM(s.repository_size)::bigint AS repository_size, SUM(s.wiki_size)::bigint AS wiki_size,
           SUM(s.job_artifacts_size)::bigint AS job_artifacts_size, SUM(s.uploads_size)::bigint AS uploads_size
    FROM projects p JOIN namespaces n ON n.id = p.namespace_id JOIN project_statistics s ON s.project_id = p.id
    WHERE n.traversal_ids[1] = ANY(${rootIds}::int[]) GROUP BY n.traversal_ids[1]`;
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  for (const id of rootIds) out.set(id, toProto(byId.get(id)));
  return out;
}

/** pg_trgm's trigrams of a string: lower-cased words, each padded with two spaces before and one after. */
function trigrams(s: string): Set<string> {
  const out = new Set<string>();
  for (const word of s.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue;
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  }
  return out;
}

/** pg_trgm's similarity(): shared trigrams over all trigrams of both strings. */
export function trigramSimilarity(a: string, b: string): number {
  const ta = trigrams(a);
  const tb = trigrams(b);
  if (!ta.size || !tb.size) return 0;
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return shared / (ta.size + tb.size - shared);
}

/** GitLab's Namespace.sorted_by_similarity_desc score: path similarity plus 0.7 × name similarity. */
export function groupSimilarity(search: string, g: { path: string; name: string }): number {
  return trigramSimilarity(g.path, search) + 0.7 * trigramSimilarity(g.name, search);
}
