// Tree objects read through the cat-file pool (no process per request): resolving a revision to
// a commit, parsing git's binary tree format and walking subtrees.
import type { CatFilePool } from "./cat-file.ts";
import { isPlausibleRevision } from "./commit-objects.ts";

export type TreeEntryType = "tree" | "blob" | "commit";

export interface TreeEntry {
  oid: string;
  name: string;
  type: TreeEntryType;
  /** Full path from the root of the listed commit. */
  path: string;
  /** Six-digit octal mode ("040000", "100644", "160000"). */
  mode: string;
}

/**
 * The commit a revision (branch, tag, sha, or any rev syntax) names, or null. Revisions that look
 * like options or carry a path (`main:dir`) are refused (isPlausibleRevision, as for commit reads)
 * so that callers can append their own.
 */
export async function resolveCommitOid(catFile: CatFilePool, gitDir: string, rev: string): Promise<string | null> {
  if (!isPlausibleRevision(rev)) return null;
  const info = await catFile.info(gitDir, `${rev}^{commit}`);
  return info?.type === "commit" ? info.oid : null;
}

/** Entry type from a tree mode: 040000 directories, 160000 submodules (gitlinks), else blobs. */
function typeOfMode(mode: string): TreeEntryType {
  if (mode === "040000") return "tree";
  if (mode === "160000") return "commit";
  return "blob";
}

/**
 * Parses a tree object: entries of "<octal mode> <name>\0<raw oid>", in git's order. The oid
 * width (20 bytes for SHA-1, 32 for SHA-256) follows from the tree's own id.
 */
export function parseTree(data: Buffer, oidBytes: number, dir: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let i = 0;
  while (i < data.length) {
    const space = data.indexOf(0x20, i);
    const nul = data.indexOf(0x00, space + 1);
    if (space === -1 || nul === -1 || nul + 1 + oidBytes > data.length) throw new Error("malformed tree object");
    // Git writes directory modes without the leading zero ("40000").
    const mode = data.toString("latin1", i, space).padStart(6, "0");
    const name = data.toString("utf8", space + 1, nul);
    const oid = data.toString("hex", nul + 1, nul + 1 + oidBytes);
    entries.push({ oid, name, type: typeOfMode(mode), path: dir ? `${dir}/${name}` : name, mode });
    i = nul + 1 + oidBytes;
  }
  return entries;
}

/**
 * The entries of the tree `treeRev` (an oid or `<commit>:<path>`), listed under `dir`; with
 * `recursive`, every subtree's entries follow their directory (depth first, like
 * `git ls-tree -r -t`). Subtrees of one level are read concurrently (pipelined requests).
 * Null when `treeRev` does not exist; an empty list when it names something other than a tree.
 */
export async function readTreeEntries(catFile: CatFilePool, gitDir: string, treeRev: string, dir: string, recursive: boolean): Promise<TreeEntry[] | null> {
  const tree = await catFile.read(gitDir, treeRev);
  if (!tree) return null;
  if (tree.type !== "tree") return [];
  const entries = parseTree(tree.data, tree.oid.length / 2, dir);
  if (!recursive) return entries;
  const below = await Promise.all(entries.map((e) => (e.type === "tree" ? readTreeEntries(catFile, gitDir, e.oid, e.path, true) : Promise.resolve([]))));
  return entries.flatMap((e, i) => [e, ...(below[i] ?? [])]);
}

const TYPE_ORDER: Record<TreeEntryType, number> = { tree: 0, blob: 1, commit: 2 };

/** GitLab's (and Gitaly's TREES_FIRST) order: directories, then files, then submodules; stable. */
export function treesFirst(entries: TreeEntry[]): TreeEntry[] {
  return entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => TYPE_ORDER[a.e.type] - TYPE_ORDER[b.e.type] || a.i - b.i)
    .map(({ e }) => e);
}
