// Gitlab::ClosingIssueExtractor with GitLab's default issue closing pattern, for same-project
// issue references (`#12`, `project/path#12`, the issue's URL).
import { issueReferencesIn } from "../system-note/mentions.ts";

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Gitlab.config.gitlab.issue_closing_pattern: a closing word (close, closes, closed, closing,
 * fix, fixes, fixed, fixing, resolve, resolves, resolved, resolving, implement, implements,
 * implemented, implementing), an optional colon, then one or more issue references joined by
 * commas or "and".
 */
function closingPattern(projectPath: string): RegExp {
  const url = String.raw`https?://[^\s/]+/${escapeRegExp(projectPath)}/-/issues/\d+`;
  const ref = String.raw`(?:${url}|[\w./-]*#\d+)`;
  const words = "(?:[Cc]los(?:e[sd]?|ing)|[Ff]ix(?:e[sd]|ing)?|[Rr]esolv(?:e[sd]?|ing)|[Ii]mplement(?:s|ed|ing)?)";
  return new RegExp(String.raw`\b${words}:? +(?:(?:issues? +)?${ref}(?: *,? +and +| *,? *)?)+`, "g");
}

/** The iids of the project's issues a text closes, each once, in order of appearance. */
export function closingIssueIids(text: string, projectPath: string): number[] {
  const iids: number[] = [];
  const own = new RegExp(String.raw`(?:^|[\s,])(?:${escapeRegExp(projectPath)})?#(\d+)|/${escapeRegExp(projectPath)}/-/issues/(\d+)`, "g");
  for (const phrase of text.matchAll(closingPattern(projectPath))) {
    for (const m of phrase[0].matchAll(own)) {
      const iid = Number(m[1] ?? m[2]);
      if (iid > 0 && !iids.includes(iid)) iids.push(iid);
    }
  }
  return iids;
}

/** The iids of the project's issues a text mentions (`#12`), each once, in order. */
export const mentionedIssueIids = (text: string): number[] => issueReferencesIn(text);
