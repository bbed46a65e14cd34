import { projectIdentity } from "./project-identity.ts";
import type { Snippet__Output as Snippet } from "@quarry/proto/types/collab/v1/Snippet";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import type { StorageMove__Output as StorageMove } from "@quarry/proto/types/repo/v1/StorageMove";
import { snippetWebUrl } from "./snippet.ts";
import { httpCloneUrl, sshCloneUrl, type Urls } from "./urls.ts";

/** GitLab's BasicRepositoryStorageMove: the move itself (`state` is the human state name, e.g. `cleanup failed`). */
function basicMove(m: StorageMove) {
  return {
    id: Number(m.id),
    created_at: m.createdAt,
    state: m.state,
    source_storage_name: m.sourceStorageName,
    destination_storage_name: m.destinationStorageName,
  };
}

/** GitLab's Entities::BasicSnippet, the snippet of a snippet repository storage move. */
function basicSnippet(s: Snippet, urls: Urls) {
  const web = snippetWebUrl(s, urls);
  const repoPath = s.projectPath ? `${s.projectPath}/snippets/${Number(s.id)}` : `snippets/${Number(s.id)}`;
  return {
    id: Number(s.id),
    title: s.title,
    description: s.description ?? null,
    visibility: s.visibility,
    updated_at: s.updatedAt,
    created_at: s.createdAt,
    project_id: Number(s.projectId) > 0 ? Number(s.projectId) : null,
    web_url: web,
    raw_url: `${web}/raw`,
    ssh_url_to_repo: sshCloneUrl(urls, repoPath),
    http_url_to_repo: httpCloneUrl(urls, repoPath),
  };
}

/** Entities::Snippets::RepositoryStorageMove (`snippet` null once the snippet is gone). */
export function snippetRepositoryStorageMove(m: StorageMove, snippet: Snippet | undefined, urls: Urls) {
  return { ...basicMove(m), snippet: snippet ? basicSnippet(snippet, urls) : null };
}

/** Entities::Projects::RepositoryStorageMove (`project` null once the project is gone). */
export function projectRepositoryStorageMove(m: StorageMove, project: Project | undefined) {
  return { ...basicMove(m), project: project ? projectIdentity(project) : null };
}
