// GitLab's commit actions (create, update, move, delete, chmod) applied to a tree's entries,
// with Gitaly's UserCommitFiles errors (its IndexError wording).
import { badRequest } from "@quarry/grpc";
import type { CommitFileAction__Output as FileAction } from "@quarry/proto/types/repo/v1/CommitFileAction";
import { writeBlobs, type TreeEntry } from "./commit-writer.ts";
import { git } from "./git.ts";

export type { FileAction };

export const ACTIONS = ["create", "delete", "move", "update", "chmod"] as const;

const REGULAR = "100644";
const EXECUTABLE = "100755";

/**
 * A repository path as Gitaly accepts it: relative, no `..` segment (directory traversal), no
 * empty or `.` segment, no NUL, and not naming `.git`.
 */
export function validateFilePath(p: string): string {
  if (!p) throw badRequest("You must provide a file path");
  const segments = p.split("/");
  if (segments.includes("..")) throw badRequest("Path cannot include directory traversal");
  if (p.includes("\0") || segments.some((s) => s === "" || s === ".") || segments[segments.length - 1] === ".git") {
    throw badRequest(`invalid path: '${p}'`);
  }
  return p;
}

/** The files of a tree being edited, with the changes made so far (path → entry, null = removed). */
export class TreeEdit {
  readonly changes = new Map<string, TreeEntry | null>();

  constructor(private readonly files: Map<string, TreeEntry>) {}

  get(p: string): TreeEntry | undefined {
    return this.files.get(p);
  }

  set(p: string, entry: TreeEntry): void {
    this.files.set(p, entry);
    this.changes.set(p, entry);
  }

  remove(p: string): void {
    this.files.delete(p);
    this.changes.set(p, null);
  }

  /** Whether `p` is a directory: some file lies below it. */
  isDirectory(p: string): boolean {
    const prefix = `${p}/`;
    for (const file of this.files.keys()) if (file.startsWith(prefix)) return true;
    return false;
  }

  /** Refuses a new file at `p` where a file or directory is, or where a parent directory is a file. */
  assertFree(p: string): void {
    if (this.files.has(p)) throw badRequest("A file with this name already exists");
    if (this.isDirectory(p)) throw badRequest("A directory with this name already exists");
    const segments = p.split("/");
    for (let i = 1; i < segments.length; i++) {
      if (this.files.has(segments.slice(0, i).join("/"))) throw badRequest("A file with this name already exists");
    }
  }

  existing(p: string): TreeEntry {
    const entry = this.files.get(p);
    if (!entry) throw badRequest("A file with this name doesn't exist");
    return entry;
  }
}

/** Stands for the blob of action `i`'s content until the blobs are written (cannot clash with an object id). */
const pending = (i: number) => `\0${i}`;

/**
 * Applies the actions in order, before any object is written. Content goes into the entries as
 * a placeholder that withBlobs replaces. Errors name the first action that cannot be applied.
 */
export function applyActions(edit: TreeEdit, actions: readonly FileAction[]): void {
  actions.forEach((a, i) => {
    const p = validateFilePath(a.filePath);
    switch (a.action) {
      case "create":
        edit.assertFree(p);
        edit.set(p, { mode: a.executeFilemode ? EXECUTABLE : REGULAR, oid: pending(i) });
        break;
      case "update": {
        const entry = edit.existing(p);
        edit.set(p, { mode: entry.mode, oid: pending(i) });
        break;
      }
      case "delete":
        edit.existing(p);
        edit.remove(p);
        break;
      case "move": {
        const from = validateFilePath(a.previousPath);
        const entry = edit.existing(from);
        edit.assertFree(p);
        edit.remove(from);
        edit.set(p, { mode: entry.mode, oid: a.content ? pending(i) : entry.oid });
        break;
      }
      case "chmod": {
        const entry = edit.existing(p);
        if (entry.mode === REGULAR || entry.mode === EXECUTABLE) edit.set(p, { mode: a.executeFilemode ? EXECUTABLE : REGULAR, oid: entry.oid });
        break;
      }
      default:
        throw badRequest(`Unknown action '${a.action}'`);
    }
  });
}

/**
 * Writes the content of the actions whose blobs the edit still uses (one `git hash-object`;
 * create without content is an empty file) and returns the changes with real blob ids.
 */
export async function withBlobs(gitDir: string, edit: TreeEdit, actions: readonly FileAction[]): Promise<Map<string, TreeEntry | null>> {
  const used = [...edit.changes.values()].flatMap((e) => (e?.oid.startsWith("\0") ? [Number(e.oid.slice(1))] : []));
  const ids = await writeBlobs(gitDir, used.map((i) => actions[i]!.content ?? Buffer.alloc(0)));
  const blobOf = new Map(used.map((i, n) => [pending(i), ids[n]!]));
  return new Map([...edit.changes].map(([p, e]) => [p, e && { mode: e.mode, oid: blobOf.get(e.oid) ?? e.oid }]));
}

/** The last commit reachable from `from` that touched `p` ("" when none did). */
export async function lastCommitFor(gitDir: string, from: string, p: string): Promise<string> {
  const { stdout } = await git(["--literal-pathspecs", "log", "-1", "--format=%H", from, "--", p], { gitDir });
  return stdout.trim();
}

/** GitLab's wording for a stale last_commit_id, by API (files update / files delete / commits). */
function changedMessage(fileOperation: string, p: string): string {
  if (fileOperation === "update") return "You are attempting to update a file that has changed since you started editing it.";
  if (fileOperation === "delete") return "You are attempting to delete a file that has been previously updated.";
  return `The file has changed since you started editing it: ${p}`;
}

/**
 * Refuses update/move/delete actions whose last_commit_id is no longer the file's last commit on
 * the start (GitLab's file_has_changed?: a file with no history passes).
 */
export async function assertUnchanged(gitDir: string, base: string, actions: readonly FileAction[], fileOperation: string): Promise<void> {
  if (!base) return;
  for (const a of actions) {
    if (!a.lastCommitId || !["update", "move", "delete"].includes(a.action)) continue;
    const p = a.action === "move" && a.previousPath ? a.previousPath : a.filePath;
    const last = await lastCommitFor(gitDir, base, p);
    if (last && last !== a.lastCommitId) throw badRequest(changedMessage(fileOperation, p));
  }
}
