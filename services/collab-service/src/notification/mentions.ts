// @username mentions in Markdown (GitLab's User.reference_pattern), outside code blocks and code spans.

/** Usernames mentioned in `text`, lower-cased, each once, in order of appearance. */
export function mentionedUsernames(text: string | null | undefined): string[] {
  if (!text) return [];
  const prose = text.replace(/```[\s\S]*?(```|$)/g, " ").replace(/`[^`\n]*`/g, " ");
  const out = new Set<string>();
  for (const m of prose.matchAll(/(?<![\w@/.])@([A-Za-z0-9_][A-Za-z0-9_.-]*)/g)) {
    // A username ends in a letter, digit, _ or - (a trailing dot is the sentence's).
    const name = m[1]!.replace(/[.]+$/, "").toLowerCase();
    if (name) out.add(name);
  }
  return [...out];
}
