import { badRequest, notFound, paramError } from "@quarry/grpc";
import type { CommitFilesRequest__Output } from "@quarry/proto/types/repo/v1/CommitFilesRequest";
import type { RepoDeps } from "../deps.ts";
import { requireContext } from "./branches.ts";
import {
  actingUser,
  assertCanWrite,
  commitTree,
  publishCommit,
  readTreeEntries,
  resolveWriteTarget,
  treeOf,
  writeTree,
  type Written,
} from "./commit-writer.ts";
import { applyActions, assertUnchanged, TreeEdit, withBlobs } from "./file-actions.ts";
import { isRepository } from "./git.ts";
import { repositoryPath } from "./validate.ts";

/**
 * One commit from GitLab's actions (POST /repository/commits and the repository files API):
 * checks the caller may push to the branch, resolves where to start, refuses stale
 * last_commit_ids, applies the actions to the start's tree in a temporary index, refuses a
 * commit that changes nothing, then commits and moves the branch (compare-and-swap + push event).
 */
export const commitFiles =
  (deps: RepoDeps) =>
  async (req: CommitFilesRequest__Output): Promise<Written> => {
    const dir = repositoryPath(deps.storageRoot, req.diskPath);
    if (!req.branch) throw paramError("branch is missing");
    if (!req.commitMessage) throw paramError("commit_message is missing");
    if (!req.actions.length) throw paramError("actions is missing");
    const context = requireContext(req.context);
    if (!(await isRepository(dir))) throw notFound("Repository");

    const refProtected = await assertCanWrite(deps, context, req.branch);
    const target = await resolveWriteTarget(dir, { branch: req.branch, startBranch: req.startBranch, startSha: req.startSha, force: req.force });
    if (target.rewrite) await assertCanWrite(deps, context, req.branch, true);
    await assertUnchanged(dir, target.baseSha, req.actions, req.fileOperation);

    const edit = new TreeEdit(await readTreeEntries(dir, target.baseSha));
    applyActions(edit, req.actions);
    const changes = await withBlobs(dir, edit, req.actions);
    const tree = await writeTree(dir, target.baseSha, changes);
    if (tree === (await treeOf(dir, target.baseSha))) throw badRequest("Your changes could not be committed: the commit would be empty (the content is unchanged)");

    const user = actingUser(context);
    const author = { name: req.authorName || user.name, email: req.authorEmail || user.email };
    const sha = await commitTree(dir, { tree, parents: target.baseSha ? [target.baseSha] : [], message: req.commitMessage, author, committer: user });
    return publishCommit(deps, dir, target, sha, context, refProtected);
  };
