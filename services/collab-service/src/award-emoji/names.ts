import { gemoji } from "gemoji";

/**
 * Emoji names as GitLab's TanukiEmoji knows them: GitHub's gemoji names (TanukiEmoji's alpha codes
 * come from gemoji), each alias leading to one canonical name. An emoji's canonical name is its
 * first name starting with a letter or digit, so 👍 is "thumbsup" ("+1" is an alias), as
 * AwardEmoji::THUMBS_UP; 🎱 stays "8ball". Custom emoji are not supported.
 */
const CANONICAL = new Map<string, string>();
for (const e of gemoji) {
  const canonical = e.names.find((n) => /^[a-z0-9]/i.test(n)) ?? e.names[0]!;
  for (const n of e.names) if (!CANONICAL.has(n)) CANONICAL.set(n, canonical);
}

/** GitLab's AwardEmoji::UPVOTE_NAME / DOWNVOTE_NAME: what issues count as upvotes and downvotes. */
export const UPVOTE_NAME = "thumbsup";
export const DOWNVOTE_NAME = "thumbsdown";

/**
 * AwardEmojis::BaseService#normalize_name: the canonical name of a known emoji (with or without
 * colons, as TanukiEmoji.find_by_alpha_code reads them); anything else is returned unchanged.
 */
export function normalizeEmojiName(name: string): string {
  return CANONICAL.get(stripColons(name)) ?? name;
}

/** Gitlab::EmojiNameValidator: whether the name (or alias) is a known emoji. */
export function isEmojiName(name: string): boolean {
  return CANONICAL.has(stripColons(name));
}

const stripColons = (name: string) => (name.length > 2 && name.startsWith(":") && name.endsWith(":") ? name.slice(1, -1) : name);
