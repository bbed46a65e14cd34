// GitLab's ActiveHookFilter: push_events_branch_filter with branch_filter_strategy.
import { branchOfRef } from "@quarry/gitlab";
import { compileUserRegex, compileWildcard, UntrustedRegexpError } from "@quarry/safe-regex";

/**
 * GitLab's RefMatcher: `*` matches any run of characters (slashes too); no `*` = exact name.
 * RE2 keeps a filter with many stars linear (`.*?` backtracking would be polynomial).
 */
export function wildcardMatches(pattern: string, branch: string): boolean {
  if (!pattern.includes("*")) return pattern === branch;
  return compileWildcard(pattern).test(branch);
}

/**
 * Whether a push to `ref` passes the hook's branch filter. The filter sees the branch name without
 * refs/heads/; empty filters and all_branches pass everything; regex is an unanchored RE2 match
 * (GitLab's UntrustedRegexp), so a user's pattern cannot stall delivery.
 */
export function branchFilterPasses(strategy: string, filter: string | null, ref: string): boolean {
  if (strategy === "all_branches" || !filter) return true;
  const branch = branchOfRef(ref) ?? ref;
  if (strategy === "regex") {
    try {
      return compileUserRegex(filter).test(branch);
    } catch (err) {
      // Saved before RE2 validated filters: such a filter matches nothing.
      if (err instanceof UntrustedRegexpError) return false;
      throw err;
    }
  }
  return wildcardMatches(filter, branch);
}
