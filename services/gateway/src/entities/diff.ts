import type { FileDiff__Output as FileDiff } from "@quarry/proto/types/repo/v1/FileDiff";

/**
 * Gitlab::Git::Diff#unidiff: the patch with ---/+++ file headers, so that it applies as a
 * unified diff. Empty patches and binary notices stay as they are.
 */
export function unidiff(d: FileDiff): string {
  if (!d.diff || d.diff.startsWith("Binary files ")) return d.diff;
  const from = d.newFile ? "/dev/null" : `a/${d.oldPath}`;
  const to = d.deletedFile ? "/dev/null" : `b/${d.newPath}`;
  return `--- ${from}\n+++ ${to}\n${d.diff}`;
}

/**
 * One file's diff (API::Entities::Diff). `generated_file` is null as in GitLab's commit and
 * compare diffs, which do not compute it.
 */
export function diffEntity(d: FileDiff, o: { unidiff?: boolean } = {}) {
  return {
    diff: o.unidiff ? unidiff(d) : d.diff,
    collapsed: d.collapsed,
    too_large: d.tooLarge,
    new_path: d.newPath,
    old_path: d.oldPath,
    a_mode: d.aMode,
    b_mode: d.bMode,
    new_file: d.newFile,
    renamed_file: d.renamedFile,
    deleted_file: d.deletedFile,
    generated_file: null,
  };
}
