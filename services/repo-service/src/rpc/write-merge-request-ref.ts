// WriteMergeRequestRef: refs/merge-requests/<iid>/head (the source's head, so the commits stay
// fetchable from the target project even after the source branch goes) or /merge. Not under
// refs/heads/: branch listings and push events never see them; upload-pack serves them.
import { ServiceError, notFound, paramError, status } from "@quarry/grpc";
import type { WriteMergeRequestRefRequest__Output } from "@quarry/proto/types/repo/v1/WriteMergeRequestRefRequest";
import type { WriteMergeRequestRefResponse } from "@quarry/proto/types/repo/v1/WriteMergeRequestRefResponse";
import type { RepoDeps } from "../deps.ts";
import { git, GitError, isRepository, NULL_SHA } from "../git/git.ts";
import { mergeRequestRef, requireCommit } from "../writes/merge.ts";

const KINDS = new Set(["head", "merge"]);

export const writeMergeRequestRef =
  (deps: RepoDeps) =>
  async (req: WriteMergeRequestRefRequest__Output): Promise<WriteMergeRequestRefResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    const kind = req.kind || "head";
    if (!KINDS.has(kind)) throw paramError("kind does not have a valid value");
    if (!(await isRepository(dir))) throw notFound("Repository");
    const ref = mergeRequestRef(Number(req.iid), kind);
    const sha = await requireCommit(dir, req.sha, "sha");
    if (req.expectedOldSha && !/^[0-9a-f]{40}$/.test(req.expectedOldSha)) throw paramError("expected_old_sha does not have a valid value");
    // Without an expectation the ref moves whatever it held: a plain `git update-ref` (the session's
    // transaction reads an empty old value as "must not exist").
    if (!req.expectedOldSha) {
      await git(["update-ref", ref, sha], { gitDir: dir });
      return { ref, sha };
    }
    try {
      await deps.gitSessions.updateRef(dir, ref, sha, req.expectedOldSha);
    } catch (err) {
      if (err instanceof GitError) {
        const expected = req.expectedOldSha === NULL_SHA ? "not to exist" : `at ${req.expectedOldSha}`;
        throw new ServiceError(status.ABORTED, { message: `${ref} has moved (expected ${expected})` }, 409);
      }
      throw err;
    }
    return { ref, sha };
  };
