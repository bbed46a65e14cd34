// Mirror URLs: the user name and password a client typed into the URL are split off (and sealed);
// the stored URL has neither; the URL shown is GitLab's safe_url (`*****` for each, a `git`
// user kept as is).
import { badRequest } from "@quarry/grpc";
import { checkOutboundUrl, OutboundUrlError, type CheckedUrl, type OutboundPolicy } from "@quarry/outbound";
import type { MirrorCredentials } from "./credentials.ts";

export const MIRROR_SCHEMES = ["http", "https", "ssh", "git"];

/** Splits `raw` into the URL without credentials and the credentials; null when it is no URL. */
export function splitUrl(raw: string): { url: string; user?: string; password?: string } | null {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return null;
  }
  const user = u.username ? decodeURIComponent(u.username) : undefined;
  const password = u.password ? decodeURIComponent(u.password) : undefined;
  u.username = "";
  u.password = "";
  return { url: u.toString(), user, password };
}

/** GitLab's RemoteMirror#safe_url: the stored URL with `*****` for the user (unless "git") and the password. */
export function safeUrl(url: string, creds: MirrorCredentials): string {
  if (!creds.user && !creds.password) return url;
  try {
    const u = new URL(url);
    if (creds.user) u.username = creds.user === "git" ? "git" : "*****";
    if (creds.password) {
      if (!u.username) u.username = "*****";
      u.password = "*****";
    }
    return u.toString();
  } catch {
    return url;
  }
}

/** Checks a mirror URL against the outbound policy; resolves with the addresses to pin. */
export async function checkMirrorUrl(url: string, policy: OutboundPolicy): Promise<CheckedUrl> {
  return checkOutboundUrl(url, policy, { schemes: MIRROR_SCHEMES });
}

/**
 * The create/update validation: a refused URL is GitLab's `{"message":{"url":["is blocked: …"]}}`.
 * A host that does not resolve (yet) is accepted, as GitLab's PublicUrlValidator does without DNS
 * rebinding protection; the sync checks again and fails if it still does not resolve.
 */
export async function validateMirrorUrl(url: string, policy: OutboundPolicy): Promise<void> {
  try {
    await checkMirrorUrl(url, policy);
  } catch (err) {
    if (err instanceof OutboundUrlError && err.reason === "unresolvable") return;
    if (err instanceof OutboundUrlError) throw badRequest({ url: [`is blocked: ${err.message}`] });
    throw err;
  }
}
