import { projectIdentity } from "./project-identity.ts";
import type { GroupSshCertificate__Output as GroupSshCertificate } from "@quarry/proto/types/identity/v1/GroupSshCertificate";
import type { SshKey__Output as SshKey } from "@quarry/proto/types/identity/v1/SshKey";
import { orNull, type Urls } from "./urls.ts";
import { userSelf } from "./user.ts";

/**
 * Key#publishable_key: the key without its comment (which may hold an e-mail address), with
 * "<owner's name> (<host>)" in its place.
 */
function publishableKey(k: SshKey, urls: Urls): string {
  const [algorithm, data] = k.key.trim().split(/\s+/);
  return `${algorithm} ${data} ${k.userName} (${new URL(urls.base).hostname})`;
}

/** Entities::SSHKey: a user's key. */
export function sshKey(k: SshKey, urls: Urls) {
  return {
    id: Number(k.id),
    title: k.title,
    created_at: k.createdAt,
    expires_at: orNull(k.expiresAt),
    key: publishableKey(k, urls),
    usage_type: k.usageType,
    last_used_at: orNull(k.lastUsedAt),
  };
}

/** Entities::SSHKeyWithUser (GET /keys/:id, GET /keys?fingerprint=): the key and its owner (null for deploy keys). */
export function sshKeyWithUser(k: SshKey, urls: Urls) {
  return { ...(k.deployKey ? deployKey(k) : sshKey(k, urls)), user: k.user ? userSelf(k.user, urls) : null };
}

/**
 * Entities::DeployKey: the key as given, with its fingerprints (fingerprint_sha256 as GitLab
 * stores it, without the "SHA256:" prefix); the administrators' list adds the projects.
 */
export function deployKey(k: SshKey, o: { withProjects?: boolean } = {}) {
  return {
    id: Number(k.id),
    title: k.title,
    created_at: k.createdAt,
    expires_at: orNull(k.expiresAt),
    key: k.key,
    usage_type: k.usageType,
    fingerprint: k.fingerprint,
    fingerprint_sha256: k.fingerprintSha256.replace(/^SHA256:/, ""),
    ...(o.withProjects
      ? {
          projects_with_write_access: k.projectsWithWriteAccess.map(projectIdentity),
          projects_with_readonly_access: k.projectsWithReadonlyAccess.map(projectIdentity),
        }
      : {}),
  };
}

/** Entities::DeployKeysProject: a deploy key read through a project, with its write access there. */
export function deployKeysProject(k: SshKey) {
  return { ...deployKey(k), can_push: k.canPush };
}

/** A group's SSH certificate authority (GET/POST /groups/:id/ssh_certificates). */
export function groupSshCertificate(c: GroupSshCertificate) {
  return { id: Number(c.id), title: c.title, key: c.key, created_at: c.createdAt };
}
