// Which issues a text mentions, for GitLab's "mentioned in" cross-reference system notes.

/** Fenced code blocks and inline code spans: GitLab's reference filters skip them. */
const CODE = /```[\s\S]*?(?:```|$)|~~~[\s\S]*?(?:~~~|$)|`[^`\n]*`/g;
/** `#12` not preceded by a word character, `/` or `&` (so `a#1`, `group/project#1` and `&#1;` are not same-project references). */
const ISSUE_REFERENCE = /(?<![\w/&])#(\d{1,9})\b/g;

/** The iids of the same-project issues a Markdown text refers to (`#12`), each once, in order of appearance; code is ignored. */
export function issueReferencesIn(text: string | null | undefined): number[] {
  if (!text) return [];
  const iids = new Set<number>();
  for (const match of text.replace(CODE, " ").matchAll(ISSUE_REFERENCE)) {
    const iid = Number(match[1]);
    if (iid > 0) iids.add(iid);
  }
  return [...iids];
}
