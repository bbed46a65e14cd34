import type { CompareRefsResponse__Output as Compare } from "@quarry/proto/types/repo/v1/CompareRefsResponse";
import { commitEntity } from "./commit.ts";
import { diffEntity } from "./diff.ts";

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
    diffs: c.diffs.map((d) => diffEntity(d, { unidiff: withUnidiff })),
    compare_timeout: c.overflow || c.timedOut,
    compare_same_ref: c.sameRef,
    web_url: `${projectWebUrl}/-/compare/${c.baseSha}...${c.headSha}`,
  };
}
