import type { DeleteRunnerResponse } from "@quarry/proto/types/ci/v1/DeleteRunnerResponse";
import type { RunnerTokenRequest__Output } from "@quarry/proto/types/ci/v1/RunnerTokenRequest";
import type { CiDeps } from "../deps.ts";
import { runnerForToken } from "./runners.ts";

/** `DELETE /runners`: a runner unregisters itself with its token. */
export const deleteRunnerByToken =
  (deps: CiDeps) =>
  async (req: RunnerTokenRequest__Output): Promise<DeleteRunnerResponse> => {
    const runner = await runnerForToken(deps, req.token);
    await deps.prisma.runner.deleteMany({ where: { id: runner.id } });
    return {};
  };
