// Commit stats (GitLab's CommitStats: lines added and removed against the first parent) for any
// number of commits with one `git diff-tree --stdin`.
import type { CommitStats__Output as CommitStats } from "@quarry/proto/types/repo/v1/CommitStats";
import { git } from "./git.ts";
import { objectCaches } from "./object-cache.ts";

export type { CommitStats };

/**
 * Stats of each commit (by id) against its first parent, the empty tree for a root commit.
 * Renames are detected (as `git diff --numstat` does by default); binary files count 0 lines.
 * A commit's stats never change: they are cached by commit id, and only misses run git.
 */
export async function commitStats(gitDir: string, commits: readonly { id: string; parentIds: readonly string[] }[]): Promise<Map<string, CommitStats>> {
  const cached = new Map<string, CommitStats>();
  const misses = commits.filter((c) => {
    const hit = objectCaches.commitStats.get(c.id);
    if (hit) cached.set(c.id, { ...hit });
    return !hit;
  });
  if (!misses.length) return cached;
  const computed = await computeStats(gitDir, misses);
  for (const [id, s] of computed) {
    objectCaches.commitStats.set(id, { ...s });
    cached.set(id, s);
  }
  return cached;
}

/** commitStats without the cache: one `git diff-tree --stdin`. */
async function computeStats(gitDir: string, commits: readonly { id: string; parentIds: readonly string[] }[]): Promise<Map<string, CommitStats>> {
  const stats = new Map<string, CommitStats>();
  // "<commit> <parent>" diffs against that parent only (merges included); "<commit>" with --root
  // diffs a root commit against the empty tree. --always prints the id even for an empty diff.
  const input = commits.map((c) => (c.parentIds[0] ? `${c.id} ${c.parentIds[0]}` : c.id)).join("\n") + "\n";
  const { stdout } = await git(["diff-tree", "--stdin", "--root", "--always", "-r", "-z", "--numstat", "-M"], { gitDir, input });
  const fields = stdout.split("\0");
  let current: CommitStats | null = null;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!.replace(/^\n/, "");
    if (!f) continue;
    if (!f.includes("\t")) {
      current = { additions: 0, deletions: 0, total: 0 };
      stats.set(f, current);
      continue;
    }
    // "<added>\t<deleted>\t<path>", or "<added>\t<deleted>\t" followed by the two paths of a rename.
    const [added = "-", deleted = "-", path = ""] = f.split("\t");
    if (!path) i += 2;
    if (!current) continue;
    const a = Number(added) || 0;
    const d = Number(deleted) || 0;
    current.additions += a;
    current.deletions += d;
    current.total += a + d;
  }
  return stats;
}
