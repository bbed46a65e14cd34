// DeleteMergeRequestRefs: a deleted merge request's refs go (refs/merge-requests/<iid>/head and
// /merge); no push event, as for their writes.
import { notFound } from "@quarry/grpc";
import type { DeleteMergeRequestRefsRequest__Output } from "@quarry/proto/types/repo/v1/DeleteMergeRequestRefsRequest";
import type { DeleteMergeRequestRefsResponse } from "@quarry/proto/types/repo/v1/DeleteMergeRequestRefsResponse";
import type { RepoDeps } from "../deps.ts";
import { git, isRepository, NULL_SHA } from "../git/git.ts";
import { mergeRequestRef } from "../writes/merge.ts";

export const deleteMergeRequestRefs =
  (deps: RepoDeps) =>
  async (req: DeleteMergeRequestRefsRequest__Output): Promise<DeleteMergeRequestRefsResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    const refs = ["head", "merge"].map((k) => mergeRequestRef(Number(req.iid), k));
    if (!(await isRepository(dir))) throw notFound("Repository");
    const { stdout } = await git(["for-each-ref", "--format=%(objectname) %(refname)", ...refs], { gitDir: dir });
    const deleted: string[] = [];
    for (const line of stdout.split("\n").filter(Boolean)) {
      const [sha, ref] = line.split(" ");
      if (!refs.includes(ref!)) continue;
      // Against the value just read: a concurrent rewrite is not silently removed.
      await deps.gitSessions.updateRef(dir, ref!, NULL_SHA, sha!);
      deleted.push(ref!);
    }
    return { deleted };
  };
