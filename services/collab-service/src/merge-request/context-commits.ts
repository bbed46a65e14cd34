import { status } from "@grpc/grpc-js";
import { forbidden, ServiceError } from "@quarry/grpc";
import type { ContextCommit } from "@quarry/proto/types/collab/v1/ContextCommit";
import type { MergeRequestRef__Output } from "@quarry/proto/types/collab/v1/MergeRequestRef";
import type { Commit__Output } from "@quarry/proto/types/repo/v1/Commit";
import type { CollabDeps } from "../deps.ts";
import type { MergeRequest, MergeRequestContextCommit } from "../generated/prisma/client.ts";
import { canUpdateMergeRequest, findVisibleMergeRequest } from "./access.ts";

/** GitLab's CONTEXT_COMMITS_POST_LIMIT. */
export const CONTEXT_COMMITS_POST_LIMIT = 20;

/** AddContextService and the DELETE route: some SHA names no commit of the repository. */
export const INVALID_CONTEXT_COMMITS = "One or more context commits' sha is not valid.";

/** A merge request found for its context commits, with the project's repository. */
export interface ContextMergeRequest {
  mergeRequest: MergeRequest;
  projectPath: string;
  diskPath: string;
}

/**
 * find_merge_request_with_access (`404 Not found`, 403 for readers who may not see merge
 * requests); `update` adds authorize!(:update_merge_request) (403).
 */
export async function findContextMergeRequest(deps: CollabDeps, ref: MergeRequestRef__Output | null, update: boolean): Promise<ContextMergeRequest> {
  const found = await findVisibleMergeRequest(deps, ref?.actor ?? null, ref?.project ?? "", Number(ref?.mergeRequestIid ?? 0));
  if (update && !canUpdateMergeRequest(found, found.mr)) throw forbidden();
  return { mergeRequest: found.mr, projectPath: found.project.pathWithNamespace, diskPath: found.project.diskPath };
}

/**
 * The repository's commits for these SHAs (full or abbreviated; like Gitaly's ListCommitsByOid any
 * revision resolves), or null when any is unknown.
 */
export async function findCommits(deps: CollabDeps, diskPath: string, shas: string[]): Promise<Commit__Output[] | null> {
  const found: Commit__Output[] = [];
  for (const sha of shas) {
    if (!sha) return null;
    try {
      const c = await deps.repo.FindCommit({ diskPath, revision: sha, stats: false });
      if (!c.commit) return null;
      found.push(c.commit);
    } catch (err) {
      if ((err as { code?: number }).code === status.NOT_FOUND || (err as { code?: number }).code === status.INVALID_ARGUMENT) return null;
      throw err;
    }
  }
  return found;
}

/** A stored context commit as the API lists it (GitLab stores no parent ids: `parent_ids` is null). */
export function storedContextCommit(row: MergeRequestContextCommit): ContextCommit {
  return {
    id: row.sha,
    parentIds: [],
    message: row.message,
    authorName: row.authorName,
    authorEmail: row.authorEmail,
    authoredDate: row.authoredDate.toISOString(),
    committerName: row.committerName,
    committerEmail: row.committerEmail,
    committedDate: row.committedDate.toISOString(),
    trailers: (row.trailers ?? {}) as Record<string, string>,
    extendedTrailers: {},
  };
}

/** A repository commit as attached (the creation result). */
export function repositoryContextCommit(c: Commit__Output): ContextCommit {
  return {
    id: c.id,
    parentIds: c.parentIds,
    message: c.message,
    authorName: c.authorName,
    authorEmail: c.authorEmail,
    authoredDate: c.authoredDate,
    committerName: c.committerName,
    committerEmail: c.committerEmail,
    committedDate: c.committedDate,
    trailers: c.trailers,
    extendedTrailers: Object.fromEntries(Object.entries(c.extendedTrailers).map(([k, v]) => [k, { values: v.values }])),
  };
}

/** render_api_error!(message, 400). */
export const contextCommitsError = (message: string) => new ServiceError(status.INVALID_ARGUMENT, { message });
