// Reading a file at a ref for the repository-files RPCs: the ref and the path are resolved with
// the cat-file pool (no process per request); only the file's last commit needs `git log`, and
// that answer is cached, since a commit and its history never change.
import { createHash } from "node:crypto";
import path from "node:path";
import { notFound, paramError } from "@quarry/grpc";
import type { RepositoryFile__Output as RepositoryFile } from "@quarry/proto/types/repo/v1/RepositoryFile";
import type { RepoDeps } from "../deps.ts";
import { git } from "./git.ts";

/** A small least-recently-used map (Map keeps insertion order; a hit re-inserts). */
export class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
}

interface FileCaches {
  /** "<gitDir>\0<commit>\0<path>" → last commit id ("" when none). */
  lastCommit: Lru<string>;
  /** "<gitDir>\0<blob id>" → content facts. */
  blobFacts: Lru<{ sha256: string; binary: boolean }>;
}

const cachesByDeps = new WeakMap<RepoDeps, FileCaches>();

/** One set of caches per service (all handlers built from the same deps share them). */
function caches(deps: RepoDeps): FileCaches {
  let c = cachesByDeps.get(deps);
  if (!c) {
    c = { lastCommit: new Lru(10_000), blobFacts: new Lru(10_000) };
    cachesByDeps.set(deps, c);
  }
  return c;
}

const INVALID_FILE_PATH = "file_path should be a valid file path";

/** GitLab's file_path validation: path traversal and absolute paths are refused with 400. */
export function validFilePath(filePath: string): string {
  if (!filePath || filePath.includes("\0") || /(^\.{1,2}$|^\.\.[/\\]|[/\\]\.\.$|[/\\]\.\.[/\\]|\n)/.test(filePath) || path.isAbsolute(filePath)) {
    throw paramError(INVALID_FILE_PATH);
  }
  return filePath;
}

/** The commit `ref` names (branch, tag, sha, "HEAD" or a revision); "" means HEAD. Null when none. */
export async function resolveRef(deps: RepoDeps, gitDir: string, ref: string): Promise<string | null> {
  if (/[\n\0]/.test(ref)) return null;
  const info = await deps.catFile.info(gitDir, `${ref || "HEAD"}^{commit}`);
  return info?.type === "commit" ? info.oid : null;
}

interface TreeEntry {
  mode: string;
  oid: string;
}

/** The entry `name` of a raw tree object ("<mode> <name>\0<binary oid>" repeated). */
function treeEntry(tree: Buffer, name: string, oidBytes: number): TreeEntry | null {
  const wanted = Buffer.from(name);
  for (let pos = 0; pos < tree.length; ) {
    const space = tree.indexOf(0x20, pos);
    const nul = tree.indexOf(0, space);
    if (space === -1 || nul === -1) return null;
    const end = nul + 1 + oidBytes;
    if (tree.subarray(space + 1, nul).equals(wanted)) {
      return { mode: tree.subarray(pos, space).toString(), oid: tree.subarray(nul + 1, end).toString("hex") };
    }
    pos = end;
  }
  return null;
}

/** Walks the trees of `commit` down `filePath`, one object read per directory level. */
async function entryAt(deps: RepoDeps, gitDir: string, commit: string, filePath: string): Promise<TreeEntry | null> {
  const root = await deps.catFile.info(gitDir, `${commit}^{tree}`);
  if (!root) return null;
  const oidBytes = root.oid.length / 2;
  let entry: TreeEntry = { mode: "40000", oid: root.oid };
  for (const segment of filePath.split("/")) {
    if (entry.mode !== "40000") return null;
    const tree = await deps.catFile.read(gitDir, entry.oid);
    if (tree?.type !== "tree") return null;
    const next = treeEntry(tree.data, segment, oidBytes);
    if (!next) return null;
    entry = next;
  }
  return entry;
}

/** File modes of blobs (regular, executable, symbolic link); trees and submodules are no files. */
const BLOB_MODES = new Set(["100644", "100755", "120000"]);

/** The last commit at or before `commit` that changed `filePath` (cached: history is immutable). */
export async function lastCommitFor(deps: RepoDeps, gitDir: string, commit: string, filePath: string): Promise<string> {
  const key = `${gitDir}\0${commit}\0${filePath}`;
  const cached = caches(deps).lastCommit.get(key);
  if (cached !== undefined) return cached;
  const { stdout } = await git(["--literal-pathspecs", "log", "-1", "--format=%H", commit, "--", filePath], { gitDir });
  const id = stdout.trim();
  caches(deps).lastCommit.set(key, id);
  return id;
}

/** Git's test: a NUL byte in the first 8000 bytes makes content binary. */
export function looksBinary(data: Buffer): boolean {
  return data.subarray(0, 8000).includes(0);
}

export interface FileRequest {
  gitDir: string;
  filePath: string;
  /** As requested ("" = HEAD, the default branch). */
  ref: string;
  withContent: boolean;
}

/**
 * A file at a ref with GitLab's metadata. `404 Commit Not Found` for a ref that names no commit,
 * `404 File Not Found` for a path that is no file there. The content is read only when wanted
 * or when its checksum is not cached yet.
 */
export async function readFile(deps: RepoDeps, r: FileRequest): Promise<RepositoryFile> {
  const commit = await resolveRef(deps, r.gitDir, r.ref);
  if (!commit) throw notFound("Commit");
  const entry = await entryAt(deps, r.gitDir, commit, r.filePath);
  if (!entry || !BLOB_MODES.has(entry.mode)) throw notFound("File");

  const factsKey = `${r.gitDir}\0${entry.oid}`;
  let facts = caches(deps).blobFacts.get(factsKey);
  let content: Buffer | null = null;
  let size: number;
  if (r.withContent || !facts) {
    const blob = await deps.catFile.read(r.gitDir, entry.oid);
    if (!blob) throw notFound("File");
    content = blob.data;
    size = blob.size;
    facts ??= { sha256: createHash("sha256").update(content).digest("hex"), binary: looksBinary(content) };
    caches(deps).blobFacts.set(factsKey, facts);
  } else {
    const info = await deps.catFile.info(r.gitDir, entry.oid);
    if (!info) throw notFound("File");
    size = info.size;
  }

  return {
    fileName: r.filePath.slice(r.filePath.lastIndexOf("/") + 1),
    filePath: r.filePath,
    size,
    content: r.withContent && content ? content : Buffer.alloc(0),
    contentSha256: facts.sha256,
    ref: r.ref,
    blobId: entry.oid,
    commitId: commit,
    lastCommitId: await lastCommitFor(deps, r.gitDir, commit, r.filePath),
    executeFilemode: entry.mode === "100755",
    binary: facts.binary,
  };
}
