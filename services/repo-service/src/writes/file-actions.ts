// GitLab's commit actions (create, update, move, delete, chmod) applied to a tree's entries,
// with Gitaly's UserCommitFiles errors (its IndexError wording).
import { badRequest } from "@quarry/grpc";
import type { CommitFileAction__Output as FileAction } from "@quarry/proto/types/repo/v1/CommitFileAction";
import type { RepoDeps } from "../deps.ts";
import { lastCommitFor } from "../git/files.ts";
import type { ObjectBatch } from "../git/loose-objects.ts";
import type { TreeEdit, TreeEntry } from "../git/tree-edit.ts";

export type { FileAction };

export const ACTIONS = ["create", "delete", "move", "update", "chmod"] as const;

const REGULAR = "100644";
const EXECUTABLE = "100755";

/**
 * A path segment git refuses in a tree (verify_path, with core.protectNTFS as git defaults it):
 * ".git" in any case, also with trailing dots or spaces or an NTFS stream suffix, and its short
 * name "git~1". Such a tree could not be checked out, and would carry a repository's internals.
 */
function isDotGit(segment: string): boolean {
  const s = segment.toLowerCase();
  return /^\.git[. ]*$/.test(s) || s.startsWith(".git:") || s === "git~1";
}

/**
 * A repository path as Gitaly accepts it: relative, no `..` segment (directory traversal), no
 * empty or `.` segment, no NUL, and no `.git` segment.
 */
export function validateFilePath(p: string): string {
  if (!p) throw badRequest("You must provide a file path");
  const segments = p.split("/");
  if (segments.includes("..")) throw badRequest("Path cannot include directory traversal");
  if (p.includes("\0") || segments.some((s) => s === "" || s === ".") || p.split(/[/\\]/).some(isDotGit)) {
    throw badRequest(`invalid path: '${p}'`);
  }
  return p;
}

const fileExists = () => badRequest("A file with this name already exists");

/** Refuses a new file at `p` where a file or directory is, or where a parent directory is a file. */
function assertFree(edit: TreeEdit, p: string): void {
  if (edit.get(p)) throw fileExists();
  if (edit.isDirectory(p)) throw badRequest("A directory with this name already exists");
  const segments = p.split("/");
  for (let i = 1; i < segments.length; i++) if (edit.get(segments.slice(0, i).join("/"))) throw fileExists();
}

/** The file at `p`; refused when there is none. */
function existing(edit: TreeEdit, p: string): TreeEntry {
  const entry = edit.get(p);
  if (!entry) throw badRequest("A file with this name doesn't exist");
  return entry;
}

/** The paths the actions touch (each action's path and previous path), for TreeEdit.load. */
export function actionPaths(actions: readonly FileAction[]): string[] {
  return [...new Set(actions.flatMap((a) => (a.action === "move" && a.previousPath ? [a.filePath, a.previousPath] : [a.filePath])))];
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
        assertFree(edit, p);
        edit.set(p, { mode: a.executeFilemode ? EXECUTABLE : REGULAR, oid: pending(i) });
        break;
      case "update": {
        const entry = existing(edit, p);
        edit.set(p, { mode: entry.mode, oid: pending(i) });
        break;
      }
      case "delete":
        existing(edit, p);
        edit.remove(p);
        break;
      case "move": {
        const from = validateFilePath(a.previousPath);
        const entry = existing(edit, from);
        assertFree(edit, p);
        edit.remove(from);
        edit.set(p, { mode: entry.mode, oid: a.content ? pending(i) : entry.oid });
        break;
      }
      case "chmod": {
        const entry = existing(edit, p);
        if (entry.mode === REGULAR || entry.mode === EXECUTABLE) edit.set(p, { mode: a.executeFilemode ? EXECUTABLE : REGULAR, oid: entry.oid });
        break;
      }
      default:
        throw badRequest(`Unknown action '${a.action}'`);
    }
  });
}

/**
 * Adds the content of the actions whose blobs the edit still uses to `batch` (create without
 * content is an empty file) and puts their ids into the edit. Returns the content by blob id.
 */
export function withBlobs(batch: ObjectBatch, edit: TreeEdit, actions: readonly FileAction[]): Map<string, Buffer> {
  const used = new Set([...edit.changes.values()].flatMap((e) => (e?.oid.startsWith("\0") ? [Number(e.oid.slice(1))] : [])));
  const contents = new Map<string, Buffer>();
  const ids = new Map<string, string>();
  for (const i of used) {
    const content = actions[i]!.content ?? Buffer.alloc(0);
    const oid = batch.add("blob", content);
    ids.set(pending(i), oid);
    contents.set(oid, content);
  }
  edit.replaceOids(ids);
  return contents;
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
export async function assertUnchanged(deps: RepoDeps, gitDir: string, base: string, actions: readonly FileAction[], fileOperation: string): Promise<void> {
  if (!base) return;
  for (const a of actions) {
    if (!a.lastCommitId || !["update", "move", "delete"].includes(a.action)) continue;
    const p = a.action === "move" && a.previousPath ? a.previousPath : a.filePath;
    const last = await lastCommitFor(deps, gitDir, base, p);
    if (last && last !== a.lastCommitId) throw badRequest(changedMessage(fileOperation, p));
  }
}
