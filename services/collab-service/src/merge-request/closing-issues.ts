// Gitlab::ClosingIssueExtractor with GitLab's default issue closing pattern, for same-project
// issue references (`#12`, `project/path#12`, the issue's URL).
// The texts are users' (descriptions, commit messages) and the pattern nests repetitions, so it
// runs on RE2 (linear time) rather than a backtracking RegExp.
import { compileUserRegex, quoteMeta, type UserRegex } from "@quarry/safe-regex";
import { issueReferencesIn } from "../system-note/mentions.ts";

/**
 * Gitlab.config.gitlab.issue_closing_pattern: a closing word (close, closes, closed, closing,
 * fix, fixes, fixed, fixing, resolve, resolves, resolved, resolving, implement, implements,
 * implemented, implementing), an optional colon, then one or more issue references joined by
 * commas or "and".
 */
function closingPattern(projectPath: string): UserRegex {
  const url = String.raw`https?://[^\s/]+/${quoteMeta(projectPath)}/-/issues/\d+`;
  const ref = String.raw`(?:${url}|[\w./-]*#\d+)`;
  const words = "(?:[Cc]los(?:e[sd]?|ing)|[Ff]ix(?:e[sd]|ing)?|[Rr]esolv(?:e[sd]?|ing)|[Ii]mplement(?:s|ed|ing)?)";
  return compileUserRegex(String.raw`(\b${words}:? +(?:(?:issues? +)?${ref}(?: *,? +and +| *,? *)?)+)`);
}

/** The iids of the project's issues a text closes, each once, in order of appearance. */
export function closingIssueIids(text: string, projectPath: string): number[] {
  const iids: number[] = [];
  const own = compileUserRegex(String.raw`(?:^|[\s,])(?:${quoteMeta(projectPath)})?#(\d+)|/${quoteMeta(projectPath)}/-/issues/(\d+)`);
  for (const [phrase] of closingPattern(projectPath).scan(text)) {
    for (const m of own.scan(phrase ?? "")) {
      const iid = Number(m[0] ?? m[1]);
      if (iid > 0 && !iids.includes(iid)) iids.push(iid);
    }
  }
  return iids;
}

/** The iids of the project's issues a text mentions (`#12`), each once, in order. */
export const mentionedIssueIids = (text: string): number[] => issueReferencesIn(text);
