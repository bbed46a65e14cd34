import type { Runner__Output as Runner } from "@quarry/proto/types/ci/v1/Runner";
import type { RunnerTokenRequest__Output } from "@quarry/proto/types/ci/v1/RunnerTokenRequest";
import type { CiDeps } from "../deps.ts";
import { runnerForToken, toRunnerMessage } from "./runners.ts";

/** `POST /runners/verify`: a known token answers with its runner and marks the contact. */
export const verifyRunner =
  (deps: CiDeps) =>
  async (req: RunnerTokenRequest__Output): Promise<Runner> => {
    const runner = await runnerForToken(deps, req.token);
    const contacted = await deps.prisma.runner.update({
      where: { id: runner.id },
      data: { contactedAt: new Date(), ...(req.systemId ? { systemId: req.systemId.slice(0, 64) } : {}) },
    });
    return toRunnerMessage(contacted);
  };
