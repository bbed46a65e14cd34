// The clone addresses of a repository and the facts a push carries (repo-service's PushContext),
// built the same way for git over HTTP (the gateway) and git over SSH (repo-service's SSH server).
import { AccessLevel } from "./access.ts";
import { VISIBILITY_LEVEL } from "./visibility.ts";

/** Where the instance answers: its external URL, and the SSH server's host and port when it runs. */
export interface InstanceAddresses {
  /** External URL without a trailing slash. */
  base: string;
  /** SSH host (default: the external URL's host name). */
  sshHost?: string;
  /** SSH port (default 22). */
  sshPort?: number;
}

/** GitLab's ssh_url_to_repo: `git@host:path.git`, or `ssh://git@host:port/path.git` off port 22. */
export function sshCloneUrl(a: InstanceAddresses, fullPath: string): string {
  const host = a.sshHost || new URL(a.base).hostname;
  const port = a.sshPort || 22;
  return port === 22 ? `git@${host}:${fullPath}.git` : `ssh://git@${host}:${port}/${fullPath}.git`;
}

export const httpCloneUrl = (a: InstanceAddresses, fullPath: string) => `${a.base}/${fullPath}.git`;

/** The project, as identity-service describes it. */
export interface PushProject {
  id: number | string;
  name: string;
  description: string;
  pathWithNamespace: string;
  namespace?: { name: string } | null;
  visibility: string;
  defaultBranch: string;
  ciConfigPath: string;
}

/** Who pushes. */
export interface Pusher {
  userId: number;
  name: string;
  username: string;
  email: string;
  isAdmin: boolean;
}

/**
 * The PushContext of a push: project facts for the push event, the pusher, and the level the
 * protected-branch rules check (instance administrators count as 60).
 */
export function buildPushContext(project: PushProject, pusher: Pusher, accessLevel: number, addresses: InstanceAddresses, o: { deployKey?: boolean } = {}) {
  const full = project.pathWithNamespace;
  return {
    projectId: Number(project.id),
    projectName: project.name,
    projectDescription: project.description,
    pathWithNamespace: full,
    namespaceName: project.namespace?.name ?? "",
    visibilityLevel: VISIBILITY_LEVEL[project.visibility] ?? 0,
    defaultBranch: project.defaultBranch,
    webUrl: `${addresses.base}/${full}`,
    httpUrl: httpCloneUrl(addresses, full),
    sshUrl: sshCloneUrl(addresses, full),
    ciConfigPath: project.ciConfigPath,
    userId: pusher.userId,
    userName: pusher.name,
    userUsername: pusher.username,
    userEmail: pusher.email,
    userAvatar: "",
    accessLevel: pusher.isAdmin ? Math.max(accessLevel, AccessLevel.ADMIN) : accessLevel,
    deployKey: o.deployKey ?? false,
  };
}
