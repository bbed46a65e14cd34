// Helpers shared by the branch RPCs.
import { BRANCH_REF_PREFIX } from "@quarry/gitlab";
import { badRequest, paramError } from "@quarry/grpc";
import type { Branch__Output as Branch } from "@quarry/proto/types/repo/v1/Branch";
import type { PushContext__Output as PushContext } from "@quarry/proto/types/repo/v1/PushContext";
import { compileUserRegex, quoteMeta, UntrustedRegexpError, type UserRegex } from "@quarry/safe-regex";
import { mergedInto, type Commit } from "../git/commits.ts";
import { git, headBranch, isPlausibleBranchName, readRefFile } from "../git/git.ts";
import type { BranchProtection } from "../protection/protection.ts";

/**
 * The sha `refs/heads/<name>` points at ("" when there is no such branch), without revision syntax:
 * read from the ref files (no process) unless only git can tell.
 */
export async function branchHead(gitDir: string, name: string): Promise<string> {
  if (!isPlausibleBranchName(name)) return "";
  const ref = BRANCH_REF_PREFIX + name;
  const read = await readRefFile(gitDir, ref);
  if (read !== undefined) return read;
  const { stdout } = await git(["for-each-ref", "--format=%(objectname)%00%(refname)", ref], { gitDir });
  for (const line of stdout.split("\n")) {
    const [sha, refname] = line.split("\0");
    if (refname === ref && sha) return sha;
  }
  return "";
}

/** The project's default branch: the one the request names, else the branch HEAD points at. */
export async function defaultBranchOf(gitDir: string, requested: string): Promise<string> {
  return requested || (await headBranch(gitDir));
}

/**
 * Which of the given branches count as merged, GitLab's way (Repository#merged_branch_names):
 * the head is reachable from the default branch's head but is not that same commit (a branch
 * just created from the default branch, and the default branch itself, are not "merged").
 * One `git for-each-ref --merged`. Returns branch name → head sha.
 */
export async function mergedBranches(gitDir: string, defaultBranch: string, names: readonly string[] | "all"): Promise<Map<string, string>> {
  const merged = new Map<string, string>();
  if (!isPlausibleBranchName(defaultBranch)) return merged;
  const defaultRef = BRANCH_REF_PREFIX + defaultBranch;
  const patterns = names === "all" ? [BRANCH_REF_PREFIX] : [...names.map((n) => BRANCH_REF_PREFIX + n), defaultRef];
  const reachable = await mergedInto(gitDir, defaultBranch, names === "all" || names.length ? patterns : []);
  const defaultHead = reachable.get(defaultRef);
  if (!defaultHead) return merged;
  for (const [ref, sha] of reachable) {
    if (ref.startsWith(BRANCH_REF_PREFIX) && sha !== defaultHead) merged.set(ref.slice(BRANCH_REF_PREFIX.length), sha);
  }
  return merged;
}

/** Most remembered answers of "is commit B reachable from commit A"; the oldest are dropped first. */
const MERGED_CACHE_SIZE = 100_000;
/** `${gitDir}\0${defaultSha}\0${branchSha}` → merged. Commits never change, so neither does the answer. */
const mergedCache = new Map<string, boolean>();

function remember(key: string, merged: boolean): void {
  if (mergedCache.size >= MERGED_CACHE_SIZE) mergedCache.delete(mergedCache.keys().next().value!);
  mergedCache.set(key, merged);
}

/**
 * mergedBranches for branches whose heads are already known (name → sha), answering from a cache
 * keyed by commit ids: listing branches again asks git nothing. Misses cost one
 * `git for-each-ref --merged=<default sha>`; a "not merged" answer is remembered only for heads
 * that did not move meanwhile (`reread`), since for-each-ref reads the refs anew.
 */
export async function mergedHeads(
  gitDir: string,
  defaultSha: string,
  heads: ReadonlyMap<string, string>,
  reread: () => Promise<ReadonlyMap<string, string>>,
): Promise<Map<string, string>> {
  const merged = new Map<string, string>();
  if (!defaultSha) return merged;
  const key = (sha: string) => `${gitDir}\0${defaultSha}\0${sha}`;
  const misses: string[] = [];
  for (const [name, sha] of heads) {
    if (sha === defaultSha) continue;
    const known = mergedCache.get(key(sha));
    if (known === undefined) misses.push(name);
    else if (known) merged.set(name, sha);
  }
  if (!misses.length) return merged;
  const { stdout } = await git(["for-each-ref", `--merged=${defaultSha}`, "--format=%(objectname)", ...misses.map((n) => BRANCH_REF_PREFIX + n)], { gitDir });
  const reachable = new Set(stdout.split("\n").filter(Boolean));
  const now = await reread();
  for (const name of misses) {
    const sha = heads.get(name)!;
    if (reachable.has(sha)) {
      remember(key(sha), true);
      merged.set(name, sha);
    } else if (now.get(name) === sha) {
      remember(key(sha), false);
    }
  }
  return merged;
}

/** A branch as the API shows it to a caller with `accessLevel`, under the project's protection rules. */
export function toBranch(
  name: string,
  commit: Commit,
  merged: ReadonlyMap<string, string>,
  defaultBranch: string,
  protection: BranchProtection,
  accessLevel: number,
): Branch {
  return {
    name,
    commit,
    merged: merged.has(name),
    default: name === defaultBranch,
    protected: protection.isProtected(name),
    developersCanPush: protection.developersCan("push", name),
    developersCanMerge: protection.developersCan("merge", name),
    canPush: protection.allows("push", name, accessLevel),
    canMerge: protection.allows("push", name, accessLevel) || protection.allows("merge", name, accessLevel),
  };
}

/** The event context is required wherever refs change. */
export function requireContext(context: PushContext | null): PushContext {
  if (!context) throw paramError("context is missing");
  return context;
}

/**
 * The branch-name filter of ListBranches, checked when built; takes the names sorted and keeps
 * their order. `search` works like GitLab's GitRefsFinder: a case-insensitive substring, with an
 * exact (ASCII case-insensitive) match moved to the front; when it contains "^", "$" or "*",
 * the first "^" and the first "$" act as anchors and every "*" as a wildcard instead.
 * `regex` is GitLab's BranchesFinder regex: an unanchored, case-sensitive RE2 match, so a user's
 * pattern runs in linear time; one RE2 refuses → 400. Both run with RE2.
 */
export function nameFilter(search: string, regex: string): (sortedNames: readonly string[]) => string[] {
  if (search && regex) throw badRequest("Specify either search or regex, not both");
  if (search) {
    let source = quoteMeta(search.toLowerCase());
    const patternSearch = /[\^$*]/.test(search);
    if (patternSearch) source = source.replace("\\^", "^").replaceAll("\\*", ".*?").replace("\\$", "$");
    const re = compileSearch(source);
    return (names) => {
      const matches = names.filter((n) => re.test(n.toLowerCase()));
      if (patternSearch) return matches;
      const exact = matches.findIndex((n) => asciiLower(n) === asciiLower(search));
      if (exact > 0) matches.unshift(...matches.splice(exact, 1));
      return matches;
    };
  }
  if (regex) {
    let re: UserRegex;
    try {
      re = compileUserRegex(regex);
    } catch (err) {
      if (err instanceof UntrustedRegexpError) throw badRequest("Regex is invalid");
      throw err;
    }
    return (names) => names.filter((n) => re.test(n));
  }
  return (names) => [...names];
}

/** The search as a pattern; too long a search cannot be one (RE2's size budget) and finds nothing. */
function compileSearch(source: string): { test(name: string): boolean } {
  try {
    return compileUserRegex(source, "s");
  } catch (err) {
    if (err instanceof UntrustedRegexpError) return { test: () => false };
    throw err;
  }
}

/** Ruby's casecmp folds ASCII letters only. */
function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** Byte order of the UTF-8 names, as git sorts refs. */
export function compareNames(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
