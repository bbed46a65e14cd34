import { forbidden } from "@quarry/grpc";
import type { CreateRunnerResponse } from "@quarry/proto/types/ci/v1/CreateRunnerResponse";
import type { RegisterRunnerRequest__Output } from "@quarry/proto/types/ci/v1/RegisterRunnerRequest";
import { timingSafeEqual } from "node:crypto";
import type { CiDeps } from "../deps.ts";
import { createRunner } from "./create-runner.ts";
import { groupOfRunnersToken } from "./group-runners-tokens.ts";
import { projectOfRunnersToken } from "./project-runners-tokens.ts";

const sameSecret = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * POST /runners (GitLab's legacy registration-token flow): the instance registration token
 * (QUARRY_RUNNER_REGISTRATION_TOKEN) registers an instance runner, a project's registration
 * token (its `runners_token`) a project runner of that project, a group's a group runner of that
 * group. Any other token is refused with 403, as is everything while no instance token is
 * configured and the token is no project's or group's.
 */
export const registerRunner =
  (deps: CiDeps) =>
  async (req: RegisterRunnerRequest__Output): Promise<CreateRunnerResponse> => {
    const expected = deps.settings.runnerRegistrationToken;
    const instance = Boolean(expected && req.registrationToken && sameSecret(req.registrationToken, expected));
    const projectId = instance || !req.registrationToken ? null : await projectOfRunnersToken(deps, req.registrationToken);
    const groupId = instance || projectId || !req.registrationToken ? null : await groupOfRunnersToken(deps, req.registrationToken);
    if (!instance && !projectId && !groupId) throw forbidden();
    return createRunner(deps)({
      runnerType: projectId ? "project_type" : groupId ? "group_type" : "instance_type",
      projectId: projectId ?? 0,
      groupId: groupId ?? 0,
      description: req.description,
      maintenanceNote: req.maintenanceNote,
      paused: req.paused,
      locked: req.locked,
      runUntagged: req.runUntagged,
      tagList: req.tagList,
      accessLevel: req.accessLevel,
      maximumTimeout: req.maximumTimeout,
      createdByUserId: 0,
    });
  };
