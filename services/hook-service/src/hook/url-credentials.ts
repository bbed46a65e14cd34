// Credentials typed into a hook URL (`https://user:secret@host/…`): split off when the hook is
// saved and sealed with the other secrets, so the stored and shown URL never holds them; put
// back only to deliver. Placeholders (`https://{user}:{password}@host`) are GitLab's own way to
// mask them and stay in the URL.

/** The user name and password of a URL's userinfo, percent-decoded. */
export interface UrlCredentials {
  user: string;
  password: string;
}

/** What the API shows in place of the user name and the password. */
export const MASK = "*****";

/** `scheme://userinfo@`: the userinfo runs to the last `@` before the path (a password may hold `@`). */
const USERINFO = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)@/;

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** `url` without its userinfo, and the credentials it held (null: none, or only placeholders). */
export function splitCredentials(url: string): { url: string; credentials: UrlCredentials | null } {
  const m = USERINFO.exec(url);
  if (!m || m[2]!.includes("{")) return { url, credentials: null };
  const colon = m[2]!.indexOf(":");
  const user = decode(colon < 0 ? m[2]! : m[2]!.slice(0, colon));
  const password = colon < 0 ? "" : decode(m[2]!.slice(colon + 1));
  return { url: m[1]! + url.slice(m[0].length), credentials: user || password ? { user, password } : null };
}

/** Whether the credentials are the mask the API showed (a client sending back what it read). */
export const isMask = (c: UrlCredentials) => c.user === MASK && (c.password === MASK || c.password === "");

/**
 * The URL as shown and recorded: `*****:*****@` where credentials are kept, sealed or (a row
 * saved before they were split off) still in the URL.
 */
export function maskedUrl(url: string, credentials: UrlCredentials | null | undefined): string {
  const stored = splitCredentials(url);
  if (!credentials && !stored.credentials) return url;
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(stored.url)?.[0];
  return scheme ? `${scheme}${MASK}:${MASK}@${stored.url.slice(scheme.length)}` : stored.url;
}

/** The URL to deliver to: the credentials put back, percent-encoded. */
export function withCredentials(url: string, credentials: UrlCredentials | null | undefined): string {
  if (!credentials) return url;
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(url)?.[0];
  if (!scheme) return url;
  const userinfo = encodeURIComponent(credentials.user) + (credentials.password ? `:${encodeURIComponent(credentials.password)}` : "");
  return `${scheme}${userinfo}@${url.slice(scheme.length)}`;
}
