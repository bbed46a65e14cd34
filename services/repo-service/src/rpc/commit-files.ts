import { badRequest, notFound, paramError } from "@quarry/grpc";
import type { CommitFilesRequest__Output } from "@quarry/proto/types/repo/v1/CommitFilesRequest";
import type { RepoDeps } from "../deps.ts";
import { requireContext } from "../refs/branches.ts";
import { actingUser, assertCanWrite, commitObject, lineCounts, publishWritten, resolveWriteTarget, type Written } from "../writes/commit-writer.ts";
import { actionPaths, applyActions, assertUnchanged, withBlobs } from "../writes/file-actions.ts";
import { isRepository } from "../git/git.ts";
import { ObjectBatch } from "../git/loose-objects.ts";
import { TreeEdit } from "../git/tree-edit.ts";

/**
 * One commit from GitLab's actions (POST /repository/commits and the repository files API):
 * checks the caller may push to the branch, resolves where to start, refuses stale
 * last_commit_ids, applies the actions to the start's tree (reading only the directories on
 * their paths), refuses a commit that changes nothing, then writes the objects, commits and moves
 * the branch (compare-and-swap + push event). The usual write starts no git process but the
 * compare-and-swap's `update-ref`.
 */
export const commitFiles =
  (deps: RepoDeps) =>
  async (req: CommitFilesRequest__Output): Promise<Written> => {
    const dir = deps.storages.resolve(req.diskPath);
    if (!req.branch) throw paramError("branch is missing");
    if (!req.commitMessage) throw paramError("commit_message is missing");
    if (!req.actions.length) throw paramError("actions is missing");
    const context = requireContext(req.context);
    if (!(await isRepository(dir))) throw notFound("Repository");

    const refProtected = await assertCanWrite(deps, context, req.branch);
    const target = await resolveWriteTarget(dir, { branch: req.branch, startBranch: req.startBranch, startSha: req.startSha, force: req.force });
    if (target.rewrite) await assertCanWrite(deps, context, req.branch, true);
    await assertUnchanged(deps, dir, target.baseSha, req.actions, req.fileOperation);

    const edit = await TreeEdit.load(deps.catFile, dir, target.baseSha, actionPaths(req.actions));
    applyActions(edit, req.actions);
    // Every object's id is known before any is written; they are stored together afterwards.
    const batch = await ObjectBatch.for(dir);
    const contents = withBlobs(batch, edit, req.actions);
    const tree = edit.write(batch);
    if (tree === edit.baseTree) throw badRequest("Your changes could not be committed: the commit would be empty (the content is unchanged)");

    const user = actingUser(context);
    const author = { name: req.authorName || user.name, email: req.authorEmail || user.email };
    const commit = commitObject(batch, { tree, parents: target.baseSha ? [target.baseSha] : [], message: req.commitMessage, author, committer: user });
    await batch.write(dir);
    const diff = edit.diff();
    const paths = { added: [] as string[], modified: [] as string[], removed: [] as string[] };
    for (const { path, before, after } of diff) (!before ? paths.added : !after ? paths.removed : paths.modified).push(path);
    return publishWritten(deps, dir, target, { commit, paths, lines: () => lineCounts(deps, dir, commit.id, diff, contents) }, context, refProtected);
  };
