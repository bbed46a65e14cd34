// GitLab's snippet parameters as repo-service commit actions (SnippetsHelpers#process_create_params,
// #process_update_params, Snippets::UpdateService#build_actions_from_params).
import { VISIBILITIES } from "@quarry/gitlab";
import { badRequest, paramError } from "@quarry/grpc";
import type { SnippetFileInput__Output } from "@quarry/proto/types/collab/v1/SnippetFileInput";
import type { SnippetFileAction } from "@quarry/proto/types/repo/v1/SnippetFileAction";

/** Grape's `values: Gitlab::VisibilityLevel.string_values`. */
export function validVisibility(visibility: string): string {
  if (!(VISIBILITIES as readonly string[]).includes(visibility)) throw paramError("visibility does not have a valid value");
  return visibility;
}

/** Grape's `requires :title, allow_blank: false`. */
export function validTitle(title: string | undefined): string {
  if (title === undefined) throw paramError("title is missing");
  if (!title.trim()) throw paramError("title is empty");
  return title;
}

const toAction = (f: { action: string; filePath: string; previousPath: string; content?: string | null }): SnippetFileAction => ({
  action: f.action,
  filePath: f.filePath,
  previousPath: f.previousPath,
  ...(f.content == null ? {} : { content: Buffer.from(f.content, "utf8") }),
});

/** POST: files[] become create actions; the deprecated file_name + content one create action. */
export function createActions(files: SnippetFileInput__Output[], fileName: string | undefined, content: string | undefined): SnippetFileAction[] {
  if (files.length && content !== undefined) throw paramError("files, content are mutually exclusive");
  if (files.length) {
    files.forEach((f, i) => {
      if (!f.filePath.trim()) throw paramError(`files[${i}][file_path] is empty`);
      if (!f.content) throw paramError(`files[${i}][content] is empty`);
    });
    return files.map((f) => toAction({ action: "create", filePath: f.filePath, previousPath: "", content: f.content }));
  }
  if (content === undefined) throw paramError("files, content are missing, exactly one parameter must be provided");
  if (!content) throw paramError("content is empty");
  if (fileName === undefined) throw paramError("file_name is missing");
  return [toAction({ action: "create", filePath: fileName, previousPath: "", content })];
}

/**
 * PUT: files[] pass as they are; the deprecated content/file_name change the single file
 * (`To update Snippets with multiple files, you must use the \`files\` parameter` otherwise).
 */
export function updateActions(
  files: SnippetFileInput__Output[],
  fileName: string | undefined,
  content: string | undefined,
  currentPaths: string[],
): SnippetFileAction[] {
  if (files.length) {
    if (content !== undefined) throw paramError("files, content are mutually exclusive");
    if (fileName !== undefined) throw paramError("files, file_name are mutually exclusive");
    return files.map((f) => toAction({ action: f.action, filePath: f.filePath, previousPath: f.previousPath, content: f.content }));
  }
  if (content === undefined && fileName === undefined) return [];
  if (currentPaths.length > 1) throw badRequest({ error: "To update Snippets with multiple files, you must use the `files` parameter" });
  const current = currentPaths[0] ?? "";
  const target = fileName || current;
  if (content !== undefined) {
    if (!content) throw paramError("content is empty");
    // SnippetInputAction: a new name makes it a move (with the new content).
    const action = !current ? "create" : target !== current ? "move" : "update";
    return [toAction({ action, filePath: target, previousPath: current, content })];
  }
  return target && target !== current ? [toAction({ action: "move", filePath: target, previousPath: current })] : [];
}
