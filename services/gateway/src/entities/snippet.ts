import type { Snippet__Output as Snippet } from "@quarry/proto/types/collab/v1/Snippet";
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import { httpCloneUrl, sshCloneUrl, type Urls } from "./urls.ts";
import { userBasic } from "./user.ts";

/** Gitlab::UrlBuilder for snippets: `<ext>/-/snippets/<id>` or `<ext>/<project>/-/snippets/<id>`. */
export function snippetWebUrl(s: Pick<Snippet, "id" | "projectPath">, urls: Urls): string {
  return s.projectPath ? `${urls.base}/${s.projectPath}/-/snippets/${Number(s.id)}` : `${urls.base}/-/snippets/${Number(s.id)}`;
}

/** The repository's path for clone URLs: `snippets/<id>` or `<project>/snippets/<id>`. */
const repoPath = (s: Snippet) => (s.projectPath ? `${s.projectPath}/snippets/${Number(s.id)}` : `snippets/${Number(s.id)}`);

/**
 * GitLab's Entities::Snippet (= PersonalSnippet = ProjectSnippet): BasicSnippet's fields, the
 * author, the first file's name, the files with their raw URLs at the default branch, the import
 * fields, and EE's repository_storage for administrators.
 */
export function snippetEntity(s: Snippet, author: User | undefined, urls: Urls, isAdmin: boolean, repositoryStorage = "default") {
  const web = snippetWebUrl(s, urls);
  return {
    id: Number(s.id),
    title: s.title,
    description: s.description ?? null,
    visibility: s.visibility,
    author: author ? userBasic(author, urls) : null,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    project_id: Number(s.projectId) > 0 ? Number(s.projectId) : null,
    web_url: web,
    raw_url: `${web}/raw`,
    ssh_url_to_repo: sshCloneUrl(urls, repoPath(s)),
    http_url_to_repo: httpCloneUrl(urls, repoPath(s)),
    file_name: s.fileName || null,
    files: s.files.map((path) => ({ path, raw_url: `${web}/raw/${s.defaultBranch}/${path}` })),
    imported: false,
    imported_from: "none",
    // The storage of the snippet's repository (repo-service's GetRepositoryStorages).
    ...(isAdmin ? { repository_storage: repositoryStorage } : {}),
  };
}
