// Shared by the merge request RPCs (CheckMerge, MergeToBranch, RebaseBranch): three-way merges of
// commits without a work tree (`git merge-tree --write-tree`, git 2.39, which finds the merge base
// itself), ancestry facts, and the push event of a branch moved by a merge or a rebase.
import type { PushEventInput } from "@quarry/bus";
import { BRANCH_REF_PREFIX } from "@quarry/gitlab";
import { notFound, paramError, ServiceError, status } from "@quarry/grpc";
import type { Identity__Output as Identity } from "@quarry/proto/types/repo/v1/Identity";
import type { PushContext__Output as PushContext } from "@quarry/proto/types/repo/v1/PushContext";
import type { RepoDeps } from "../deps.ts";
import { pushEventInput } from "../events/push-events.ts";
import { changeRefWithEvent, RefUpdateError } from "../events/ref-change.ts";
import { git, resolveCommit } from "../git/git.ts";
import { BranchProtection } from "../protection/protection.ts";
import { branchHead } from "../refs/branches.ts";
import { actingUser, commitTree, type Signature } from "./commit-writer.ts";

/** A merge of two commits' trees: the tree written (with conflict markers when not clean) and the conflicting paths. */
export interface TreeMerge {
  tree: string;
  clean: boolean;
  /** Conflicting paths, sorted, each once. */
  conflicts: string[];
  /** The histories share no commit: nothing was merged (git refuses unrelated histories). */
  unrelated: boolean;
}

/** `git merge-tree --write-tree` of two commits (writes objects, never a ref). */
export async function mergeCommits(gitDir: string, ours: string, theirs: string): Promise<TreeMerge> {
  // git refuses unrelated histories (exit 128); asking for the merge base first tells them apart from real failures.
  if (!(await mergeBase(gitDir, ours, theirs))) return { tree: "", clean: false, conflicts: [], unrelated: true };
  return { ...(await mergeTree(gitDir, ours, theirs)), unrelated: false };
}

/** One `git merge-tree --write-tree` run: the tree written and the conflicting paths, sorted, each once. */
async function mergeTree(gitDir: string, left: string, right: string): Promise<Omit<TreeMerge, "unrelated">> {
  const { stdout, exitCode } = await git(["merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", left, right], { gitDir, okExitCodes: [1] });
  const [tree = "", ...paths] = stdout.split("\0").filter(Boolean);
  return { tree, clean: exitCode === 0, conflicts: [...new Set(paths)].sort() };
}

/** Identity and date of the throwaway commits that only steer merge-tree's merge base. */
const SCAFFOLD: Signature = { name: "Quarry", email: "quarry@localhost", date: "1970-01-01T00:00:00+00:00" };

/**
 * Applies the change from tree `base` to tree `theirs` onto tree `ours` (a cherry-pick). git 2.39's
 * merge-tree has no --merge-base, so the trees go into throwaway commits whose only common
 * ancestor holds `base` (as CherryPickCommit does), here with the conflicting paths.
 */
export async function pickTrees(gitDir: string, base: string, ours: string, theirs: string): Promise<TreeMerge> {
  const scaffold = (tree: string, parents: string[]) => commitTree(gitDir, { tree, parents, message: "scaffold\n", author: SCAFFOLD, committer: SCAFFOLD });
  const root = await scaffold(base, []);
  const [left, right] = await Promise.all([scaffold(ours, [root]), scaffold(theirs, [root])]);
  return { ...(await mergeTree(gitDir, left, right)), unrelated: false };
}

/** A commit's message exactly as stored (everything after the header). */
export async function rawMessage(gitDir: string, sha: string): Promise<string> {
  const { stdout } = await git(["cat-file", "commit", sha], { gitDir });
  const end = stdout.indexOf("\n\n");
  return end === -1 ? "" : stdout.slice(end + 2);
}

/** Whether `ancestor` is reachable from `descendant` (the same commit counts). */
export async function isAncestor(gitDir: string, ancestor: string, descendant: string): Promise<boolean> {
  const { exitCode } = await git(["merge-base", "--is-ancestor", ancestor, descendant], { gitDir, okExitCodes: [1] });
  return exitCode === 0;
}

/** The best common ancestor, "" for unrelated histories. */
export async function mergeBase(gitDir: string, a: string, b: string): Promise<string> {
  const { stdout } = await git(["merge-base", a, b], { gitDir, okExitCodes: [1] });
  return stdout.trim();
}

/** Commits reachable from `a` but not `b`, and from `b` but not `a`. */
export async function leftRightCounts(gitDir: string, a: string, b: string): Promise<{ left: number; right: number }> {
  const { stdout } = await git(["rev-list", "--left-right", "--count", `${a}...${b}`, "--"], { gitDir });
  const [left = "0", right = "0"] = stdout.trim().split(/\s+/);
  return { left: Number(left), right: Number(right) };
}

/** A request's source commit (sha, branch or tag): 400 when missing, 404 Commit when unknown. */
export async function requireCommit(gitDir: string, rev: string, field: string): Promise<string> {
  if (!rev) throw paramError(`${field} is missing`);
  if (rev.startsWith("-")) throw notFound("Commit");
  const sha = await resolveCommit(gitDir, rev);
  if (!sha) throw notFound("Commit");
  return sha;
}

/** A branch's head: 400 when the name is missing, 404 Branch when it does not exist. */
export async function requireBranch(gitDir: string, branch: string, field: string): Promise<string> {
  if (!branch) throw paramError(`${field} is missing`);
  const head = await branchHead(gitDir, branch);
  if (!head) throw notFound("Branch");
  return head;
}

/**
 * refs/merge-requests/<iid>/<kind> (GitLab's MergeRequest#ref_path): outside refs/heads/, so no
 * branch listing or push event sees it, yet upload-pack serves it. 400 for an iid that is not a positive integer.
 */
export function mergeRequestRef(iid: number, kind: string): string {
  if (!Number.isSafeInteger(iid) || iid < 1) throw paramError("iid does not have a valid value");
  return `refs/merge-requests/${iid}/${kind}`;
}

/** The branch moved since the caller looked (compare-and-swap lost): ABORTED, which the caller answers with 409. */
export function branchMoved(branch: string): ServiceError {
  return new ServiceError(status.ABORTED, { message: `Branch '${branch}' has moved; refresh and try again` }, 409);
}

/** Refuses the write when the caller expected another head than the branch has. */
export function assertExpectedHead(branch: string, head: string, expected: string): void {
  if (expected && expected !== head) throw branchMoved(branch);
}

/** The merge conflicts as FAILED_PRECONDITION, the paths in the message and in `conflicts`. */
export function conflictError(what: string, paths: readonly string[]): ServiceError {
  const list = paths.length ? `: ${paths.join(", ")}` : "";
  return new ServiceError(status.FAILED_PRECONDITION, { message: `${what} failed: conflicts${list}`, conflicts: paths }, 409);
}

/** An identity from the request, or the acting user when it has no name. */
export function identityOr(context: PushContext, who: Identity | null | undefined): Signature {
  if (who?.name) return { name: who.name, email: who.email };
  return actingUser(context);
}

/**
 * Moves `branch` from `oldSha` to `newSha` (compare-and-swap) with the push event a git push of
 * the same change would send (commits `oldSha..newSha`, as Git::BranchHooksService lists them).
 * A lost compare-and-swap → ABORTED, nothing moved.
 */
export async function moveBranchWithEvent(deps: RepoDeps, gitDir: string, context: PushContext, branch: string, oldSha: string, newSha: string): Promise<void> {
  const ref = BRANCH_REF_PREFIX + branch;
  const protection = await BranchProtection.load(deps, context.projectId);
  const input = (await pushEventInput(gitDir, { ref, oldSha, newSha }, { context, protection, wasEmpty: false })) as PushEventInput;
  try {
    await changeRefWithEvent(
      deps,
      gitDir,
      { ref, oldSha, newSha },
      { context, checkoutSha: newSha, commits: input.commits, totalCommitsCount: input.totalCommitsCount, refProtected: input.refProtected ?? false },
    );
  } catch (err) {
    if (err instanceof RefUpdateError) throw branchMoved(branch);
    throw err;
  }
}
