import { badRequest, notFound } from "@quarry/grpc";
import type { Commit__Output as Commit } from "@quarry/proto/types/repo/v1/Commit";
import type { FindMergeBaseRequest__Output } from "@quarry/proto/types/repo/v1/FindMergeBaseRequest";
import type { RepoDeps } from "../deps.ts";
import { readCommit } from "../git/commits.ts";
import { git, isRepository } from "../git/git.ts";
import { resolveCommitOid } from "../git/trees.ts";

/**
 * `git merge-base` of resolved commits (the best common ancestor of the first and the others, as
 * Gitaly's FindMergeBase), or "" when they share no history.
 */
export async function mergeBase(gitDir: string, shas: readonly string[], env?: Record<string, string>): Promise<string> {
  const { stdout, exitCode } = await git(["merge-base", ...shas], { gitDir, env, okExitCodes: [1] });
  return exitCode === 0 ? stdout.trim() : "";
}

/**
 * The merge base of two or more refs as a commit. Fewer than two refs: 400 "Provide at least 2
 * refs"; unknown ones: 400 "Could not find ref(s): a, b"; no common ancestor: 404 Merge Base.
 */
export const findMergeBase =
  (deps: RepoDeps) =>
  async (req: FindMergeBaseRequest__Output): Promise<Commit> => {
    const dir = deps.storages.resolve(req.diskPath);
    if (!(await isRepository(dir))) throw notFound("Repository");
    if (req.refs.length < 2) throw badRequest("Provide at least 2 refs");
    const shas = await Promise.all(req.refs.map((ref) => resolveCommitOid(deps.catFile, dir, ref)));
    const unknown = req.refs.filter((_, i) => !shas[i]);
    if (unknown.length) throw badRequest(`Could not find ${unknown.length === 1 ? "ref" : "refs"}: ${unknown.join(", ")}`);
    const base = await mergeBase(dir, shas as string[]);
    if (!base) throw notFound("Merge Base");
    return readCommit(dir, base);
  };
