// The commit messages of a merge (Gitlab::MergeRequests::MessageGenerator with GitLab's default
// templates).

/** GitLab's DEFAULT_MERGE_COMMIT_TEMPLATE. */
export const DEFAULT_MERGE_COMMIT_TEMPLATE =
  "Merge branch '%{source_branch}' into '%{target_branch}'\n\n%{title}\n\n%{issues}\n\nSee merge request %{reference}";
/** GitLab's DEFAULT_SQUASH_COMMIT_TEMPLATE. */
export const DEFAULT_SQUASH_COMMIT_TEMPLATE = "%{title}";

export interface MessageFacts {
  sourceBranch: string;
  targetBranch: string;
  title: string;
  description: string | null;
  /** `group/project!iid`. */
  reference: string;
  /** The iids the merge closes, in order. */
  closingIids: readonly number[];
}

const PLACEHOLDER = /%\{([a-z_]+)\}/g;

/** Rails' Array#to_sentence: "a", "a and b", "a, b, and c". */
function toSentence(words: readonly string[]): string {
  if (words.length <= 2) return words.join(" and ");
  return `${words.slice(0, -1).join(", ")}, and ${words[words.length - 1]}`;
}

/**
 * Fills a template's placeholders; a line holding only a placeholder that is empty goes away
 * with the line breaks before it (GitLab's MessageGenerator). Unknown placeholders stay as written.
 */
export function renderTemplate(template: string, facts: MessageFacts): string {
  const values: Record<string, string> = {
    source_branch: facts.sourceBranch,
    target_branch: facts.targetBranch,
    title: facts.title,
    description: facts.description ?? "",
    reference: facts.reference,
    issues: facts.closingIids.length ? `Closes ${toSentence(facts.closingIids.map((i) => `#${i}`))}` : "",
  };
  const lines = template.split("\n");
  const out: string[] = [];
  for (const line of lines) {
    const only = /^%\{([a-z_]+)\}$/.exec(line);
    if (only?.[1] !== undefined && only[1] in values && values[only[1]] === "") {
      while (out.length && out[out.length - 1] === "") out.pop();
      continue;
    }
    out.push(line.replace(PLACEHOLDER, (whole, name: string) => (name in values ? (values[name] ?? "") : whole)));
  }
  return out.join("\n");
}

/** The merge commit message: the project's template, else GitLab's default. */
export const mergeCommitMessage = (template: string, facts: MessageFacts): string => renderTemplate(template || DEFAULT_MERGE_COMMIT_TEMPLATE, facts);

/** The squash commit message: the project's template, else the title. */
export const squashCommitMessage = (template: string, facts: MessageFacts): string => renderTemplate(template || DEFAULT_SQUASH_COMMIT_TEMPLATE, facts);
