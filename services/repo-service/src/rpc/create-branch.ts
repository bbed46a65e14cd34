import { BRANCH_REF_PREFIX } from "@quarry/gitlab";
import { badRequest, notFound, paramError } from "@quarry/grpc";
import type { Branch__Output as Branch } from "@quarry/proto/types/repo/v1/Branch";
import type { CreateBranchRequest__Output } from "@quarry/proto/types/repo/v1/CreateBranchRequest";
import type { PushContext__Output as PushContext } from "@quarry/proto/types/repo/v1/PushContext";
import type { RepoDeps } from "../deps.ts";
import { branchHead, defaultBranchOf, mergedBranches, requireContext, toBranch } from "../refs/branches.ts";
import { actingUser, assertCanWrite, commitObject, publishWritten, resolveWriteTarget } from "../writes/commit-writer.ts";
import { readCommit } from "../git/commits.ts";
import { hasBranches, headBranch, isRepository, isValidBranchName, NULL_SHA, resolveCommit } from "../git/git.ts";
import { ObjectBatch } from "../git/loose-objects.ts";
import { changeRefWithEvent, RefUpdateError } from "../events/ref-change.ts";
import { BranchProtection } from "../protection/protection.ts";
import { serializeTree } from "../git/tree-edit.ts";

/**
 * Creates `refs/heads/<name>` at the commit `ref` resolves to (a branch, tag or sha) and records
 * its push event (before = null sha, no commits: the history already exists). The ref is created
 * with a compare-and-swap against the null sha, so of two racing creators one gets
 * "Branch already exists".
 *
 * In an empty repository GitLab (Branches::CreateService#create_master_branch) first commits an
 * empty README.md to the default branch, so that a branch can be made from it; so does this.
 */
export const createBranch =
  (deps: RepoDeps) =>
  async (req: CreateBranchRequest__Output): Promise<Branch> => {
    const dir = deps.storages.resolve(req.diskPath);
    if (!req.name) throw paramError("branch is missing");
    if (!req.ref) throw paramError("ref is missing");
    const context = requireContext(req.context);
    if (!(await isRepository(dir))) throw notFound("Repository");
    if (/\s/.test(req.name) || !(await isValidBranchName(req.name))) throw badRequest("Branch name is invalid");
    if (await branchHead(dir, req.name)) throw badRequest("Branch already exists");
    if (!(await hasBranches(dir))) {
      const defaultBranch = await defaultBranchOf(dir, context.defaultBranch);
      // Only a ref naming the default branch can resolve once the README exists: any other is
      // refused before anything is written.
      if (!(await namesBranch(dir, req.ref, defaultBranch))) throw badRequest(`Invalid reference name: ${req.ref}`);
      await addReadme(deps, dir, defaultBranch, context);
    }
    const sha = await resolveCommit(dir, req.ref);
    if (!sha) throw badRequest(`Invalid reference name: ${req.ref}`);
    const [commit, protection] = await Promise.all([readCommit(dir, sha), BranchProtection.load(deps, context.projectId)]);

    const ref = BRANCH_REF_PREFIX + req.name;
    try {
      await changeRefWithEvent(
        deps,
        dir,
        { ref, oldSha: NULL_SHA, newSha: sha },
        { context, checkoutSha: sha, commits: [], refProtected: protection.isProtected(req.name) },
      );
    } catch (err) {
      if (err instanceof RefUpdateError) {
        if (await branchHead(dir, req.name)) throw badRequest("Branch already exists");
        // e.g. "refs/heads/a" exists, so "a/b" cannot (or the other way round).
        throw badRequest(`Failed to create branch '${req.name}': ${err.reason}`);
      }
      throw err;
    }

    const defaultBranch = await defaultBranchOf(dir, context.defaultBranch);
    const merged = await mergedBranches(dir, defaultBranch, [req.name]);
    return toBranch(req.name, commit, merged, defaultBranch, protection, context.accessLevel);
  };

/** Whether `ref` names `branch` (its short or full name, or HEAD pointing at it). */
async function namesBranch(dir: string, ref: string, branch: string): Promise<boolean> {
  if (ref === branch || ref === BRANCH_REF_PREFIX + branch) return true;
  return ref === "HEAD" && (await headBranch(dir)) === branch;
}

const README_MESSAGE = "Add README.md";

/**
 * GitLab's first commit of an empty repository made for a new branch: an empty README.md on the
 * default branch, "Add README.md", by the acting user, written like any API commit (loose
 * objects, compare-and-swap, push event). A concurrent writer that created the branch first
 * wins: its commit is kept and this one dropped.
 */
async function addReadme(deps: RepoDeps, dir: string, branch: string, context: PushContext): Promise<void> {
  const refProtected = await assertCanWrite(deps, context, branch);
  let target: Awaited<ReturnType<typeof resolveWriteTarget>>;
  try {
    target = await resolveWriteTarget(dir, { branch });
  } catch (err) {
    // A racer's branch appeared between the target's reads of the (then empty) repository.
    if (await branchHead(dir, branch)) return;
    throw err;
  }
  if (target.baseSha) return; // created meanwhile
  const batch = await ObjectBatch.for(dir);
  const blob = batch.add("blob", Buffer.alloc(0));
  const tree = batch.add("tree", serializeTree(new Map([["README.md", { mode: "100644", oid: blob }]])));
  const user = actingUser(context);
  const commit = commitObject(batch, { tree, parents: [], message: README_MESSAGE, author: user, committer: user });
  await batch.write(dir);
  const paths = { added: ["README.md"], modified: [], removed: [] };
  try {
    await publishWritten(deps, dir, target, { commit, paths, lines: async () => ({ additions: 0, deletions: 0 }) }, context, refProtected);
  } catch (err) {
    if (await branchHead(dir, branch)) return;
    throw err;
  }
}
