// GitLab's ActiveHookFilter: push_events_branch_filter with branch_filter_strategy.

/** GitLab's RefMatcher: `*` matches any run of characters (slashes too); no `*` = exact name. */
export function wildcardMatches(pattern: string, branch: string): boolean {
  if (!pattern.includes("*")) return pattern === branch;
  const re = new RegExp("^" + pattern.split("*").map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*?") + "$");
  return re.test(branch);
}

/**
 * Whether a push to `ref` passes the hook's branch filter. The filter sees the branch name without
 * refs/heads/; empty filters and all_branches pass everything; regex is an unanchored match.
 */
export function branchFilterPasses(strategy: string, filter: string | null, ref: string): boolean {
  if (strategy === "all_branches" || !filter) return true;
  const branch = ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : ref;
  if (strategy === "regex") {
    try {
      return new RegExp(filter).test(branch);
    } catch {
      return false;
    }
  }
  return wildcardMatches(filter, branch);
}
