import type { Commit__Output as Commit } from "@quarry/proto/types/repo/v1/Commit";

/** A commit (GitLab's API::Entities::Commit); `created_at` is always the committed date. */
export function commitEntity(c: Commit, projectWebUrl: string) {
  return {
    id: c.id,
    short_id: c.shortId,
    created_at: c.committedDate,
    parent_ids: c.parentIds,
    title: c.title,
    message: c.message,
    author_name: c.authorName,
    author_email: c.authorEmail,
    authored_date: c.authoredDate,
    committer_name: c.committerName,
    committer_email: c.committerEmail,
    committed_date: c.committedDate,
    trailers: c.trailers ?? {},
    extended_trailers: Object.fromEntries(Object.entries(c.extendedTrailers ?? {}).map(([k, v]) => [k, v.values])),
    web_url: `${projectWebUrl}/-/commit/${c.id}`,
  };
}

/** Line counts of a commit against its parent. */
export interface CommitStats {
  additions: number;
  deletions: number;
}

/**
 * A commit with its details (GitLab's API::Entities::CommitDetail): `stats` only when asked for,
 * `status` and `last_pipeline` null (no pipelines ran for it), and the project's id.
 */
export function commitDetailEntity(c: Commit, projectWebUrl: string, o: { projectId: number; stats?: CommitStats | null }) {
  const stats = o.stats ? { stats: { additions: o.stats.additions, deletions: o.stats.deletions, total: o.stats.additions + o.stats.deletions } } : {};
  return { ...commitEntity(c, projectWebUrl), ...stats, status: null, project_id: o.projectId, last_pipeline: null };
}
