import type { Snippet__Output as Snippet } from "@quarry/proto/types/collab/v1/Snippet";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import { describe, expect, it } from "vitest";
import { projectRepositoryStorageMove, snippetRepositoryStorageMove } from "./repository-storage-move.ts";

const urls = { base: "https://git.example.com", sshHost: "git.example.com", sshPort: 22 };
const move = {
  id: 7,
  containerType: "snippet",
  containerId: 3,
  state: "cleanup failed",
  sourceStorageName: "default",
  destinationStorageName: "fast",
  createdAt: "2026-11-26T10:00:00.000Z",
};

describe("repository storage move entities", () => {
  it("renders GitLab's Snippets::RepositoryStorageMove with a BasicSnippet (project snippets under their project)", () => {
    const snippet = {
      id: 3,
      projectId: 9,
      projectPath: "group/proj",
      title: "t",
      visibility: "internal",
      createdAt: "2026-11-25T10:00:00.000Z",
      updatedAt: "2026-11-25T11:00:00.000Z",
    } as unknown as Snippet;
    expect(snippetRepositoryStorageMove(move, snippet, urls)).toEqual({
      id: 7,
      created_at: "2026-11-26T10:00:00.000Z",
      state: "cleanup failed",
      source_storage_name: "default",
      destination_storage_name: "fast",
      snippet: {
        id: 3,
        title: "t",
        description: null,
        visibility: "internal",
        updated_at: "2026-11-25T11:00:00.000Z",
        created_at: "2026-11-25T10:00:00.000Z",
        project_id: 9,
        web_url: "https://git.example.com/group/proj/-/snippets/3",
        raw_url: "https://git.example.com/group/proj/-/snippets/3/raw",
        ssh_url_to_repo: "git@git.example.com:group/proj/snippets/3.git",
        http_url_to_repo: "https://git.example.com/group/proj/snippets/3.git",
      },
    });
    expect(snippetRepositoryStorageMove(move, undefined, urls).snippet).toBeNull();
  });

  it("renders GitLab's Projects::RepositoryStorageMove with a ProjectIdentity", () => {
    const project = {
      id: 9,
      description: "",
      name: "Proj",
      nameWithNamespace: "Group / Proj",
      path: "proj",
      pathWithNamespace: "group/proj",
      createdAt: "2026-11-20T10:00:00.000Z",
    } as unknown as Project;
    expect(projectRepositoryStorageMove({ ...move, containerType: "project", containerId: 9, state: "finished" }, project)).toEqual({
      id: 7,
      created_at: "2026-11-26T10:00:00.000Z",
      state: "finished",
      source_storage_name: "default",
      destination_storage_name: "fast",
      project: {
        id: 9,
        description: null,
        name: "Proj",
        name_with_namespace: "Group / Proj",
        path: "proj",
        path_with_namespace: "group/proj",
        created_at: "2026-11-20T10:00:00.000Z",
      },
    });
  });
});
