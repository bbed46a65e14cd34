// Snippet repositories (GitLab's SnippetRepository): where they live, and GitLab's rules for the
// snippet files[] actions (Snippets::CreateService/UpdateService → SnippetRepository#multi_files_action).
import { createHash } from "node:crypto";
import { badRequest, paramError } from "@quarry/grpc";
import type { SnippetFileAction__Output as SnippetFileAction } from "@quarry/proto/types/repo/v1/SnippetFileAction";
import type { CommitFileAction__Output as FileAction } from "@quarry/proto/types/repo/v1/CommitFileAction";
import type { RepoDeps } from "../deps.ts";
import { git } from "../git/git.ts";

/** Gitlab::GlRepository::SNIPPET's storage prefix (Storage::Hashed::SNIPPET_REPOSITORY_PATH_PREFIX). */
export const SNIPPET_PREFIX = "@snippets";
/** A snippet's default branch (Gitlab::DefaultBranch's default). */
export const SNIPPET_BRANCH = "main";
/** Snippet::MAX_FILE_COUNT (Snippet.max_file_limit). */
export const SNIPPET_MAX_FILES = 10;
/** ApplicationSetting snippet_size_limit's default, 50 MB. */
export const SNIPPET_SIZE_LIMIT = 52_428_800;
/** SnippetRepository::DEFAULT_EMPTY_FILE_NAME: a file without a path is named snippetfile<N>.txt. */
const EMPTY_FILE_PATTERN = /^snippetfile(\d+)\.txt$/;

/** `@snippets/<h[0..2]>/<h[2..4]>/<h>.git`, h = SHA-256 of the snippet id (Storage::Hashed#disk_path). */
export function snippetDiskPath(snippetId: number): string {
  if (!Number.isSafeInteger(snippetId) || snippetId <= 0) throw paramError("snippet_id does not have a valid value");
  const h = createHash("sha256").update(String(snippetId)).digest("hex");
  return `${SNIPPET_PREFIX}/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git`;
}

/** The snippet's repository directory inside the storage root. */
export function snippetDir(deps: RepoDeps, snippetId: number): { diskPath: string; dir: string } {
  const diskPath = snippetDiskPath(snippetId);
  return { diskPath, dir: deps.storages.resolve(diskPath) };
}

/** The blobs of a commit's whole tree: path → { oid, size }, in git's order. */
export async function snippetFiles(gitDir: string, commit: string): Promise<{ path: string; blobId: string; size: number }[]> {
  if (!commit) return [];
  const { stdout } = await git(["ls-tree", "-r", "-z", "--long", "--full-tree", commit], { gitDir });
  return stdout
    .split("\0")
    .filter(Boolean)
    .flatMap((line) => {
      const m = /^(\d{6}) (\w+) ([0-9a-f]+) +(\S+)\t(.*)$/s.exec(line);
      return m && m[2] === "blob" ? [{ path: m[5]!, blobId: m[3]!, size: Number(m[4]) }] : [];
    });
}

/**
 * GitLab's answer to a refused snippet write: the repository error added to the snippet
 * (`Repository Error creating|updating the snippet[ - detail]`, the detail only for errors other
 * than a plain SnippetRepository::CommitError), as the snippets API renders it:
 * `400 {"message": {"error": …}}`.
 */
export function snippetError(creating: boolean, detail?: string) {
  const message = creating ? "Error creating the snippet" : "Error updating the snippet";
  return badRequest({ error: `Repository ${detail ? `${message} - ${detail}` : message}` });
}

/** 1024-based size as Rails' number_to_human_size prints it ("50 MB", "1.5 KB", "12 Bytes"). */
export function humanSize(bytes: number): string {
  const units = ["Bytes", "KB", "MB", "GB", "TB"];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  if (u === 0) return `${bytes} ${bytes === 1 ? "Byte" : "Bytes"}`;
  // Three significant digits, trailing zeros stripped.
  return `${Number(n.toPrecision(3))} ${units[u]}`;
}

const SNIPPET_ACTIONS = new Set(["create", "update", "delete", "move"]);

/**
 * GitLab's files[] entries as commit actions (SnippetRepository#transform_file_entries): the
 * action must be one of create/update/delete/move (Grape's 400 otherwise); a missing file_path
 * reuses previous_path on update/move, else becomes the next free `snippetfile<N>.txt`; an update
 * without content is dropped; a move without content keeps the content. Content over the size
 * limit is refused as Snippet's content validation does.
 */
export function snippetCommitActions(entries: readonly SnippetFileAction[], existingPaths: readonly string[], sizeLimit = SNIPPET_SIZE_LIMIT): FileAction[] {
  let next = 1 + Math.max(0, ...existingPaths.map((p) => Number(EMPTY_FILE_PATTERN.exec(p)?.[1] ?? 0)));
  const actions: FileAction[] = [];
  entries.forEach((e, i) => {
    if (!SNIPPET_ACTIONS.has(e.action)) throw paramError(`files[${i}][action] does not have a valid value`);
    if (e.content && e.content.length > sizeLimit) {
      throw badRequest({ error: `Content is too long (${humanSize(e.content.length)}). The maximum size is ${humanSize(sizeLimit)}.` });
    }
    let filePath = e.filePath;
    if (!filePath) filePath = e.previousPath && e.action !== "create" ? e.previousPath : `snippetfile${next++}.txt`;
    if (e.action === "update" && e.content == null) return;
    actions.push({
      action: e.action,
      filePath,
      previousPath: e.previousPath,
      content: e.content ?? undefined,
      executeFilemode: undefined,
      lastCommitId: "",
    } as FileAction);
  });
  return actions;
}
