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
