import { BRANCH_REF_PREFIX } from "@quarry/gitlab";
import { badRequest, notFound, paramError } from "@quarry/grpc";
import type { Commit__Output as Commit } from "@quarry/proto/types/repo/v1/Commit";
import type { UpdateSubmoduleRequest__Output } from "@quarry/proto/types/repo/v1/UpdateSubmoduleRequest";
import type { RepoDeps } from "../deps.ts";
import { branchHead, requireContext } from "../refs/branches.ts";
import { actingUser, assertCanWrite, commitTree, publishCommit, writeTree } from "../writes/commit-writer.ts";
import { branchRefs, git, isRepository } from "../git/git.ts";

const GITLINK = "160000";

/** The gitlink at `submodule` in `commit`, or "" when the path is no submodule. */
async function gitlinkAt(gitDir: string, commit: string, submodule: string): Promise<string> {
  const { stdout } = await git(["ls-tree", "-z", "--full-tree", commit, "--", submodule], { gitDir });
  for (const record of stdout.split("\0")) {
    const tab = record.indexOf("\t");
    const [mode, , oid] = record.slice(0, tab).split(" ");
    if (tab > 0 && record.slice(tab + 1) === submodule && mode === GITLINK) return oid ?? "";
  }
  return "";
}

/**
 * Points the submodule at `commit_sha` in a new commit on an existing branch, authored and
 * committed by the acting user (Gitaly's UserUpdateSubmodule, GitLab's messages).
 */
export const updateSubmodule =
  (deps: RepoDeps) =>
  async (req: UpdateSubmoduleRequest__Output): Promise<Commit> => {
    const dir = deps.storages.resolve(req.diskPath);
    if (!req.submodule) throw paramError("submodule is missing");
    if (!req.commitSha) throw paramError("commit_sha is missing");
    if (!req.branch) throw paramError("branch is missing");
    const context = requireContext(req.context);
    if (!(await isRepository(dir))) throw notFound("Repository");
    const refProtected = await assertCanWrite(deps, context, req.branch);
    if (!(await branchRefs(dir)).length) throw badRequest("The repository is empty");
    const head = await branchHead(dir, req.branch);
    if (!head) throw badRequest("You can only create or edit files when you are on a branch");
    if (!/^[0-9a-f]{40}$/.test(req.commitSha)) throw badRequest("Invalid parameters");

    const current = await gitlinkAt(dir, head, req.submodule);
    if (!current) throw badRequest("Invalid submodule path");
    if (current === req.commitSha) throw badRequest(`The submodule ${req.submodule} is already at ${req.commitSha}`);

    const tree = await writeTree(deps, dir, head, new Map([[req.submodule, { mode: GITLINK, oid: req.commitSha }]]));
    const user = actingUser(context);
    const message = req.commitMessage || `Update submodule ${req.submodule} with oid ${req.commitSha}`;
    const sha = await commitTree(dir, { tree, parents: [head], message, author: user, committer: user });
    const target = { branch: req.branch, ref: BRANCH_REF_PREFIX + req.branch, oldSha: head, baseSha: head, rewrite: false };
    return (await publishCommit(deps, dir, target, sha, context, refProtected)).commit;
  };
