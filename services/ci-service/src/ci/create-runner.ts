import { paramError } from "@quarry/grpc";
import type { CreateRunnerRequest__Output } from "@quarry/proto/types/ci/v1/CreateRunnerRequest";
import type { CreateRunnerResponse__Output as CreateRunnerResponse } from "@quarry/proto/types/ci/v1/CreateRunnerResponse";
import type { CiDeps } from "../deps.ts";
import { tokenDigest } from "../token-digest.ts";
import { validId } from "./job-token-scope.ts";
import { newRunnerToken, RUNNER_ACCESS_LEVELS, RUNNER_TYPES, toRunnerMessage } from "./runners.ts";

/**
 * Creates a runner (GitLab's `POST /user/runners`): a project runner belongs to `project_id`, a
 * group runner to `group_id`, an instance runner to nobody. The token is returned this once.
 */
export const createRunner =
  (deps: CiDeps) =>
  async (req: CreateRunnerRequest__Output): Promise<CreateRunnerResponse> => {
    if (!(RUNNER_TYPES as readonly string[]).includes(req.runnerType)) throw paramError("runner_type does not have a valid value");
    const accessLevel = req.accessLevel || "not_protected";
    if (!(RUNNER_ACCESS_LEVELS as readonly string[]).includes(accessLevel)) throw paramError("access_level does not have a valid value");
    if (req.maximumTimeout < 0) throw paramError("maximum_timeout does not have a valid value");
    const projectId = req.runnerType === "project_type" ? validId(req.projectId, "project_id") : null;
    const groupId = req.runnerType === "group_type" ? validId(req.groupId, "group_id") : null;
    const token = newRunnerToken();
    const runner = await deps.prisma.runner.create({
      data: {
        tokenDigest: tokenDigest(token),
        runnerType: req.runnerType,
        projectId,
        groupId,
        description: req.description,
        maintenanceNote: req.maintenanceNote,
        paused: req.paused,
        locked: req.locked,
        runUntagged: req.runUntagged,
        tagList: [...new Set(req.tagList.map((t) => t.trim()).filter(Boolean))],
        accessLevel,
        maximumTimeout: req.maximumTimeout || null,
        createdByUserId: req.createdByUserId || null,
      },
    });
    return { runner: toRunnerMessage(runner), token };
  };
