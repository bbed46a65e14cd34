import type { ContextCommit__Output as ContextCommit } from "@quarry/proto/types/collab/v1/ContextCommit";
import { fullTitle } from "./commit.ts";

/**
 * A stored context commit as GET …/context_commits lists it (MergeRequestContextCommit#to_commit):
 * GitLab keeps no parent ids, so `parent_ids` is null; `created_at` is the committed date.
 */
export function contextCommitEntity(c: ContextCommit) {
  return {
    id: c.id,
    short_id: c.id.slice(0, 8),
    created_at: c.committedDate,
    parent_ids: null,
    title: fullTitle(c.message),
    message: c.message,
    author_name: c.authorName,
    author_email: c.authorEmail,
    authored_date: c.authoredDate,
    committer_name: c.committerName,
    committer_email: c.committerEmail,
    committed_date: c.committedDate,
  };
}

/** A commit as POST …/context_commits answers it (API::Entities::Commit of the repository's commit). */
export function createdContextCommitEntity(c: ContextCommit, projectWebUrl: string) {
  return {
    ...contextCommitEntity(c),
    parent_ids: c.parentIds,
    trailers: c.trailers ?? {},
    extended_trailers: Object.fromEntries(Object.entries(c.extendedTrailers ?? {}).map(([k, v]) => [k, v.values])),
    web_url: `${projectWebUrl}/-/commit/${c.id}`,
  };
}
