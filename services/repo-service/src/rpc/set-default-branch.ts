import { BRANCH_REF_PREFIX, branchRef } from "@quarry/gitlab";
import { notFound } from "@quarry/grpc";
import type { SetDefaultBranchRequest__Output } from "@quarry/proto/types/repo/v1/SetDefaultBranchRequest";
import type { SetDefaultBranchResponse } from "@quarry/proto/types/repo/v1/SetDefaultBranchResponse";
import type { RepoDeps } from "../deps.ts";
import { git, isRepository, resolveCommit } from "../git/git.ts";
import { validateBranchName } from "../validate.ts";

/**
 * Points HEAD at `branch`. With `must_exist` the branch has to exist — unless the repository has
 * no branches at all (an empty repository's default branch is whatever the first push creates).
 */
export const setDefaultBranch =
  (deps: RepoDeps) =>
  async (req: SetDefaultBranchRequest__Output): Promise<SetDefaultBranchResponse> => {
    const dir = deps.storages.resolve(req.diskPath);
    const branch = await validateBranchName(req.branch);
    if (!(await isRepository(dir))) throw notFound("Repository");
    if (req.mustExist && !(await resolveCommit(dir, branchRef(branch)))) {
      const { stdout } = await git(["for-each-ref", "--count=1", "--format=%(refname)", BRANCH_REF_PREFIX], { gitDir: dir });
      if (stdout.trim()) throw notFound("Branch");
    }
    await git(["symbolic-ref", "HEAD", branchRef(branch)], { gitDir: dir });
    await deps.prisma.repository.updateMany({ where: { diskPath: req.diskPath }, data: { defaultBranch: branch } });
    return {};
  };
