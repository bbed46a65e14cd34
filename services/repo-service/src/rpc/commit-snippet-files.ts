import { BRANCH_REF_PREFIX } from "@quarry/gitlab";
import { notFound, paramError, ServiceError } from "@quarry/grpc";
import type { CommitSnippetFilesRequest__Output } from "@quarry/proto/types/repo/v1/CommitSnippetFilesRequest";
import type { CommitSnippetFilesResponse__Output as CommitSnippetFilesResponse } from "@quarry/proto/types/repo/v1/CommitSnippetFilesResponse";
import type { RepoDeps } from "../deps.ts";
import { GitError, isRepository, NULL_SHA } from "../git/git.ts";
import { ObjectBatch } from "../git/loose-objects.ts";
import { TreeEdit } from "../git/tree-edit.ts";
import { branchHead } from "../refs/branches.ts";
import { commitObject } from "../writes/commit-writer.ts";
import { actionPaths, applyActions, withBlobs } from "../writes/file-actions.ts";
import { SNIPPET_BRANCH, SNIPPET_MAX_FILES, snippetCommitActions, snippetDir, snippetError, snippetFiles } from "../writes/snippets.ts";

/**
 * One commit of GitLab's snippet files[] actions on main, as Snippets::CreateService (the first
 * commit, "Initial commit") and Snippets::UpdateService ("Update snippet") write it through
 * SnippetRepository#multi_files_action: the acting user is author and committer. The tree is
 * edited with TreeEdit and the objects written as loose objects like CommitFiles; main moves
 * with a compare-and-swap against the head read (or `expected_head`), so a concurrent writer
 * loses with GitLab's plain commit error and nothing is left half-written. No push event:
 * GitLab sends none for snippets.
 */
export const commitSnippetFiles =
  (deps: RepoDeps) =>
  async (req: CommitSnippetFilesRequest__Output): Promise<CommitSnippetFilesResponse> => {
    const { dir } = snippetDir(deps, req.snippetId);
    const user = req.user;
    if (!user?.name.trim()) throw paramError("user is missing");
    if (!req.actions.length) throw paramError("files is missing");
    if (!(await isRepository(dir))) throw notFound("Repository");

    const head = await branchHead(dir, SNIPPET_BRANCH);
    const creating = !head;
    if (req.expectedHead && req.expectedHead !== head) throw snippetError(creating);
    const before = await snippetFiles(dir, head);
    const actions = snippetCommitActions(
      req.actions,
      before.map((f) => f.path),
    );
    const paths = new Set(before.map((f) => f.path));
    if (!actions.length) return { commitId: head, committed: false, filePaths: [...paths].sort() };

    const edit = await TreeEdit.load(deps.catFile, dir, head, actionPaths(actions));
    try {
      applyActions(edit, actions);
    } catch (err) {
      // SnippetRepository#commit_error_exception: Gitaly's invalid-path errors become "Invalid
      // file name"; any other (a file that exists, or is missing) a plain CommitError.
      if (!(err instanceof ServiceError)) throw err;
      const invalidPath = /^(invalid path|path cannot include directory traversal)/i.test(err.message);
      throw snippetError(creating, invalidPath ? "Invalid file name" : undefined);
    }
    for (const a of actions) {
      if (a.action === "create") paths.add(a.filePath);
      else if (a.action === "delete") paths.delete(a.filePath);
      else if (a.action === "move") {
        paths.delete(a.previousPath);
        paths.add(a.filePath);
      }
    }
    // Gitlab::Checks::PushFileCountCheck (run by Gitaly's hooks for snippets): a PreReceiveError,
    // which GitLab turns into a plain CommitError.
    if (paths.size > SNIPPET_MAX_FILES) throw snippetError(creating);

    const batch = await ObjectBatch.for(dir);
    withBlobs(batch, edit, actions);
    const tree = edit.write(batch);
    const filePaths = [...paths].sort();
    if (tree === edit.baseTree && head) return { commitId: head, committed: false, filePaths };
    const identity = { name: user.name, email: user.email };
    const message = creating ? "Initial commit" : "Update snippet";
    const commit = commitObject(batch, { tree, parents: head ? [head] : [], message, author: identity, committer: identity });
    await batch.write(dir);
    try {
      await deps.gitSessions.updateRef(dir, BRANCH_REF_PREFIX + SNIPPET_BRANCH, commit.id, head || NULL_SHA);
    } catch (err) {
      // Lost the race (GitLab's lease: "Snippet is already being updated", a plain CommitError).
      if (err instanceof GitError) throw snippetError(creating);
      throw err;
    }
    return { commitId: commit.id, committed: true, filePaths };
  };
