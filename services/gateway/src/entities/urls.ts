import { sshCloneUrl as gitlabSshCloneUrl } from "@quarry/gitlab";
/** Absolute URLs of web pages and clone addresses, from the configured external URL. */
export interface Urls {
  base: string;
  /** The SSH server's host and port (QUARRY_SSH_HOST / QUARRY_SSH_PORT) for ssh_url_to_repo. */
  sshHost?: string;
  sshPort?: number;
}

export const webUrl = (u: Urls, path: string) => `${u.base}/${path}`;
export const apiUrl = (u: Urls, path: string) => `${u.base}/api/v4/${path}`;
export const httpCloneUrl = (u: Urls, fullPath: string) => `${u.base}/${fullPath}.git`;
/** `git@host:path.git`, or `ssh://git@host:port/path.git` when the SSH port is not 22 (@quarry/gitlab). */
export const sshCloneUrl = (u: Urls, fullPath: string) => gitlabSshCloneUrl(u, fullPath);

/**
 * GitLab's avatar_url: `<external_url>/uploads/-/system/<model>/avatar/<id>/<file>` (served by
 * routes/uploads.ts), or null without an avatar (for users too: no Gravatar fallback here).
 */
export const avatarUrl = (u: Urls, model: "user" | "project" | "group", id: number | string | bigint, filename: string | undefined | null) =>
  filename ? `${u.base}/uploads/-/system/${model}/avatar/${id}/${encodeURIComponent(filename)}` : null;

/** "" from proto means unset; GitLab renders that as null. */
export const orNull = (s: string | undefined | null) => (s ? s : null);
