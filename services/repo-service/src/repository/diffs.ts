// File diffs between two trees as GitLab shows them (Gitlab::Git::Diff from Gitaly's CommitDiff):
// one `git diff-tree --raw --patch -z` run, raw records paired in order with their patches.
import type { FileDiff__Output as FileDiff } from "@quarry/proto/types/repo/v1/FileDiff";
import { git } from "./git.ts";

export type { FileDiff };

/** GitLab's defaults (diff_max_files, diff_max_lines, 5 KiB per file, diff_max_patch_bytes). */
export interface DiffLimits {
  /** Files after which the diff stops. */
  maxFiles: number;
  /** Patch lines (all files) at which the diff stops; the file crossing it is dropped. */
  maxLines: number;
  /** Patch bytes (all files) at which the diff stops; the file crossing it is dropped. */
  maxBytes: number;
  /** A single patch this large is dropped and the file marked too_large. */
  maxPatchBytes: number;
}

export const DEFAULT_DIFF_LIMITS: DiffLimits = {
  maxFiles: 1000,
  maxLines: 50_000,
  maxBytes: 1000 * 5 * 1024,
  maxPatchBytes: 200 * 1024,
};

/** The empty tree of the repository's hash (known to git without being stored). */
export function emptyTree(oidLike: string): string {
  return oidLike.length === 64
    ? "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321"
    : "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
}

/** The changes from tree-ish `from` to tree-ish `to` (never read as options), within `limits`. */
export async function diffTrees(
  gitDir: string,
  from: string,
  to: string,
  limits: DiffLimits = DEFAULT_DIFF_LIMITS,
): Promise<{ diffs: FileDiff[]; overflow: boolean }> {
  // Gitaly's flags; diff-tree, being plumbing, ignores diff.* UI configuration.
  const { stdout } = await git(
    ["diff-tree", "-r", "-z", "--raw", "--patch", "--no-abbrev", "--full-index", "--find-renames=30%", "--src-prefix=a/", "--dst-prefix=b/", "--end-of-options", from, to],
    { gitDir },
  );
  return parseRawPatch(stdout, limits);
}

interface RawRecord {
  aMode: string;
  bMode: string;
  status: string;
  oldPath: string;
  newPath: string;
}

/** Octal mode without leading zeros, as Ruby's `mode.to_s(8)` ("000000" → "0"). */
function mode(octal: string): string {
  return (parseInt(octal, 8) || 0).toString(8);
}

/** The `--raw -z` records and where the patch text starts (after the NUL that separates them). */
function rawRecords(out: string): { records: RawRecord[]; patchStart: number } {
  const records: RawRecord[] = [];
  let pos = 0;
  const next = (): string => {
    const end = out.indexOf("\0", pos);
    const field = out.slice(pos, end === -1 ? out.length : end);
    pos = end === -1 ? out.length : end + 1;
    return field;
  };
  while (pos < out.length && out[pos] === ":") {
    // ":<a mode> <b mode> <a oid> <b oid> <status>", then one path, two for renames and copies.
    const [aMode = "", bMode = "", , , status = ""] = next().slice(1).split(" ");
    const oldPath = next();
    const newPath = /^[RC]/.test(status) ? next() : oldPath;
    records.push({ aMode: mode(aMode), bMode: mode(bMode), status: status[0] ?? "", oldPath, newPath });
  }
  if (out[pos] === "\0") pos++;
  return { records, patchStart: pos };
}

/**
 * The body of each "diff --git" block: what follows the extended headers and the ---/+++ lines
 * (hunks from the first "@@", or a "Binary files … differ" notice), "" when there is none.
 */
function patchBodies(patch: string): string[] {
  const bodies: string[] = [];
  let body: string[] | null = null;
  let inHeader = false;
  for (const line of patch.split(/(?<=\n)/)) {
    if (line.startsWith("diff --git ")) {
      if (body) bodies.push(body.join(""));
      body = [];
      inHeader = true;
      continue;
    }
    if (!body) continue;
    if (inHeader && !line.startsWith("@@") && !line.startsWith("Binary files ")) continue;
    inHeader = false;
    body.push(line);
  }
  if (body) bodies.push(body.join(""));
  return bodies;
}

function countLines(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i !== -1; i = s.indexOf("\n", i + 1)) n++;
  return s && !s.endsWith("\n") ? n + 1 : n;
}

/** Pairs raw records with patch bodies and applies the limits (Gitlab::Git::DiffCollection). */
export function parseRawPatch(out: string, limits: DiffLimits = DEFAULT_DIFF_LIMITS): { diffs: FileDiff[]; overflow: boolean } {
  const { records, patchStart } = rawRecords(out);
  const bodies = patchBodies(out.slice(patchStart));
  const diffs: FileDiff[] = [];
  let lines = 0;
  let bytes = 0;
  let b = 0;
  for (const r of records) {
    // A type change (file ↔ symlink) is printed as a deletion and a creation: two blocks.
    let body = bodies[b++] ?? "";
    if (r.status === "T") body += bodies[b++] ?? "";
    if (diffs.length >= limits.maxFiles) return { diffs, overflow: true };
    const size = Buffer.byteLength(body);
    const tooLarge = size >= limits.maxPatchBytes;
    const kept = tooLarge ? "" : body;
    lines += countLines(kept);
    bytes += Buffer.byteLength(kept);
    if (lines >= limits.maxLines || bytes >= limits.maxBytes) return { diffs, overflow: true };
    diffs.push({
      diff: kept,
      newPath: r.newPath,
      oldPath: r.oldPath,
      aMode: r.aMode,
      bMode: r.bMode,
      newFile: r.status === "A",
      renamedFile: r.oldPath !== r.newPath,
      deletedFile: r.status === "D",
      tooLarge,
      collapsed: false,
    });
  }
  return { diffs, overflow: false };
}
