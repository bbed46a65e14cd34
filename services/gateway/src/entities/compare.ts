import type { CompareDiff__Output as CompareDiff } from "@quarry/proto/types/repo/v1/CompareDiff";
import type { CompareRefsResponse__Output as Compare } from "@quarry/proto/types/repo/v1/CompareRefsResponse";
import { commitEntity } from "./commit.ts";

/**
 * Gitlab::Git::Diff#unidiff: the patch with `---`/`+++` file headers, so that standard tools can
 * apply it; empty and binary diffs stay as they are.
 */
export function unidiff(d: CompareDiff): string {
  if (!d.diff || d.diff.startsWith("Binary files ")) return d.diff;
  const from = d.newFile ? "/dev/null" : `a/${d.oldPath}`;
  const to = d.deletedFile ? "/dev/null" : `b/${d.newPath}`;
  return `--- ${from}\n+++ ${to}\n${d.diff}`;
}

/** A file diff (GitLab's API::Entities::Diff). */
export function diffEntity(d: CompareDiff, withUnidiff: boolean) {
  return {
    diff: withUnidiff ? unidiff(d) : d.diff,
    collapsed: d.collapsed,
    too_large: d.tooLarge,
    new_path: d.newPath,
    old_path: d.oldPath,
    a_mode: d.aMode,
    b_mode: d.bMode,
    new_file: d.newFile,
    renamed_file: d.renamedFile,
    deleted_file: d.deletedFile,
  };
}

/**
 * A comparison (GitLab's API::Entities::Compare): `commit` is the newest commit, `compare_timeout`
 * says the diff was cut short (its limits or its time ran out), `web_url` names the compared
 * commits (the merge base unless straight).
 */
export function compareEntity(c: Compare, projectWebUrl: string, withUnidiff: boolean) {
  const commits = c.commits.map((commit) => commitEntity(commit, projectWebUrl));
  return {
    commit: commits.at(-1) ?? null,
    commits,
    diffs: c.diffs.map((d) => diffEntity(d, withUnidiff)),
    compare_timeout: c.overflow || c.timedOut,
    compare_same_ref: c.sameRef,
    web_url: `${projectWebUrl}/-/compare/${c.baseSha}...${c.headSha}`,
  };
}
