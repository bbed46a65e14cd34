import path from "node:path";
import { notFound } from "@quarry/grpc";
import type { CompareRefsRequest__Output } from "@quarry/proto/types/repo/v1/CompareRefsRequest";
import type { CompareRefsResponse__Output as CompareRefsResponse } from "@quarry/proto/types/repo/v1/CompareRefsResponse";
import type { RepoDeps } from "../deps.ts";
import { logCommits } from "../git/commits.ts";
import { readDiffs } from "../git/diffs.ts";
import { mergeBase } from "./find-merge-base.ts";
import { isRepository } from "../git/git.ts";
import { objectCaches } from "../git/object-cache.ts";
import { resolveCommitOid } from "../git/trees.ts";

/** The empty tree, the base of a diff between histories without a common ancestor. */
function emptyTree(sha: string): string {
  return sha.length === 64 ? "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321" : "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
}

/**
 * GitLab's compare: the commits in from..to (oldest first) and the diff from `from` (straight) or
 * from the merge base of both (from...to) to `to`. `to` is resolved in the project's repository,
 * `from` in `from_disk_path`'s when given; that repository's objects are lent to git read-only
 * through GIT_ALTERNATE_OBJECT_DIRECTORIES (nothing is fetched or written). Either ref unknown:
 * `404 Ref Not Found`. The answer depends only on the two commit ids (and `straight`): it is
 * cached by them, unless the diff timed out.
 */
export const compareRefs =
  (deps: RepoDeps) =>
  async (req: CompareRefsRequest__Output): Promise<CompareRefsResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    const fromDir = req.fromDiskPath ? deps.storages.resolve(req.fromDiskPath) : dir;
    if (!(await isRepository(dir)) || !(await isRepository(fromDir))) throw notFound("Repository");
    const [fromSha, toSha] = await Promise.all([resolveCommitOid(deps.catFile, fromDir, req.from), resolveCommitOid(deps.catFile, dir, req.to)]);
    if (!fromSha || !toSha) throw notFound("Ref");
    if (fromSha === toSha) {
      return { commits: [], diffs: [], overflow: false, timedOut: false, sameRef: true, baseSha: fromSha, headSha: toSha };
    }
    const key = `${fromSha}\0${toSha}\0${req.straight ? "straight" : "base"}`;
    const cached = objectCaches.compares.get(key);
    if (cached) return cached;
    const env = fromDir === dir ? undefined : { GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(fromDir, "objects") };
    const common = req.straight ? "" : await mergeBase(dir, [fromSha, toSha], env);
    const base = req.straight ? fromSha : common || emptyTree(toSha);
    const [commits, diff] = await Promise.all([
      logCommits(dir, ["--reverse", "--end-of-options", `${fromSha}..${toSha}`, "--"], env),
      readDiffs(dir, base, toSha, { env }),
    ]);
    const response: CompareRefsResponse = {
      commits,
      diffs: diff.diffs,
      overflow: diff.overflow,
      timedOut: diff.timedOut,
      sameRef: false,
      baseSha: common || fromSha,
      headSha: toSha,
    };
    // A timed-out diff depends on the machine's load, not only on the commits.
    if (!diff.timedOut) objectCaches.compares.set(key, response);
    return response;
  };
