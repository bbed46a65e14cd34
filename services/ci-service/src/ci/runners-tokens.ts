// Runner registration tokens, as projects and groups both keep them (GitLab's
// RunnersTokenPrefixable): a prefixed random token, sealed for showing it again and digested for
// the lookup, created on first request for a page of owners at once.
import { randomBytes } from "node:crypto";
import type { CiDeps } from "../deps.ts";
import { tokenDigest } from "../token-digest.ts";

/** GitLab's RunnersTokenPrefixable::RUNNERS_TOKEN_PREFIX. */
export const RUNNERS_TOKEN_PREFIX = "GR1348941";

/** Most owners (projects or groups) one token request answers (a page of a list at most). */
export const MAX_TOKEN_OWNERS = 100;

/** A new token: the prefix and 20 URL-safe random characters (Devise.friendly_token, as GitLab). */
export const newRunnersToken = (): string => RUNNERS_TOKEN_PREFIX + randomBytes(15).toString("base64url");

/** A new token's stored columns. */
export function sealedRunnersToken(deps: Pick<CiDeps, "secrets">) {
  const token = newRunnersToken();
  return { tokenSealed: new Uint8Array(deps.secrets.seal(token)), tokenDigest: tokenDigest(token) };
}

/**
 * The stored tokens of `ids` in their order, creating the missing ones first (`create` must skip
 * duplicates, so concurrent first requests agree on one token).
 */
export async function runnersTokensOf<R>(
  ids: number[],
  find: (ids: number[]) => Promise<R[]>,
  ownerOf: (row: R) => number,
  create: (missing: number[]) => Promise<unknown>,
): Promise<R[]> {
  if (!ids.length) return [];
  let rows = await find(ids);
  const missing = ids.filter((id) => !rows.some((r) => ownerOf(r) === id));
  if (missing.length) {
    await create(missing);
    rows = await find(ids);
  }
  const byId = new Map(rows.map((r) => [ownerOf(r), r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
}

/** The digest a registration token is looked up by, or null when it cannot be a runners token. */
export const runnersTokenDigest = (token: string): string | null => (token.startsWith(RUNNERS_TOKEN_PREFIX) ? tokenDigest(token) : null);
