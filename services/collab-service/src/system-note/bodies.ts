// The bodies of GitLab's system notes (SystemNotes::IssuablesService, TimeTrackingService), word for
// word, so clients and people reading the notes see what GitLab writes. Label, state and milestone
// changes are resource events, not notes (document 2).

/** Rails' Array#to_sentence: "a", "a and b", "a, b, and c". */
export function toSentence(words: readonly string[]): string {
  if (words.length <= 2) return words.join(" and ");
  return `${words.slice(0, -1).join(", ")}, and ${words[words.length - 1]}`;
}

/**
 * Gitlab::Diff::InlineDiff + InlineDiffMarkdownMarker for one changed line: the part between the
 * common prefix and the common suffix is marked `{-…-}` in the old text and `{+…+}` in the new.
 */
export function markInlineDiff(oldText: string, newText: string): { old: string; new: string } {
  const a = Array.from(oldText);
  const b = Array.from(newText);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const mark = (chars: string[], symbol: "-" | "+") => {
    const middle = chars.slice(prefix, chars.length - suffix).join("");
    if (middle === "") return chars.join("");
    return `${chars.slice(0, prefix).join("")}{${symbol}${middle}${symbol}}${chars.slice(chars.length - suffix).join("")}`;
  };
  return { old: mark(a, "-"), new: mark(b, "+") };
}

/** "changed title from **{-Old-} title** to **{+New+} title**" */
export function titleChangedBody(oldTitle: string, newTitle: string): string {
  const marked = markInlineDiff(oldTitle, newTitle);
  return `changed title from **${marked.old}** to **${marked.new}**`;
}

export const DESCRIPTION_CHANGED_BODY = "changed the description";

/** "assigned to @a and @b and unassigned @c"; usernames without the @. */
export function assigneesChangedBody(added: readonly string[], removed: readonly string[]): string {
  const parts: string[] = [];
  if (added.length) parts.push(`assigned to ${toSentence(added.map((u) => `@${u}`))}`);
  if (removed.length) parts.push(`unassigned ${toSentence(removed.map((u) => `@${u}`))}`);
  return parts.join(" and ");
}

/** "made the issue confidential" / "made the issue visible to everyone". */
export const confidentialityBody = (confidential: boolean, noteableName = "issue"): string =>
  confidential ? `made the ${noteableName} confidential` : `made the ${noteableName} visible to everyone`;

/** "locked the discussion in this issue" / "unlocked the discussion in this issue". */
export const discussionLockBody = (locked: boolean, noteableName = "issue"): string =>
  `${locked ? "locked" : "unlocked"} the discussion in this ${noteableName}`;

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "changed due date to November 30, 2026" (Ruby's Date#to_fs(:long)) / "removed due date"; `due` is YYYY-MM-DD or null. */
export function dueDateBody(due: string | null): string {
  if (!due) return "removed due date";
  const [y, m, d] = due.split("-").map(Number) as [number, number, number];
  return `changed due date to ${MONTHS[m - 1]} ${d}, ${y}`;
}

/** "mentioned in #12" / "mentioned in group/project#12" (GitLab's cross_reference_note_content). */
export const mentionedInBody = (reference: string): string => `mentioned in ${reference}`;
