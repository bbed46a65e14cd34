import { orNull } from "./urls.ts";

/** The project fields Entities::ProjectIdentity shows. */
export interface ProjectIdentitySource {
  id: number | string;
  description: string;
  name: string;
  nameWithNamespace: string;
  path: string;
  pathWithNamespace: string;
  createdAt: string;
}

/** GitLab's Entities::ProjectIdentity (a deploy key's projects, a project repository storage move's project). */
export function projectIdentity(p: ProjectIdentitySource) {
  return {
    id: Number(p.id),
    description: orNull(p.description),
    name: p.name,
    name_with_namespace: p.nameWithNamespace,
    path: p.path,
    path_with_namespace: p.pathWithNamespace,
    created_at: p.createdAt,
  };
}
