import { forbidden } from "@quarry/grpc";
import type { CreateRunnerResponse } from "@quarry/proto/types/ci/v1/CreateRunnerResponse";
import type { RegisterRunnerRequest__Output } from "@quarry/proto/types/ci/v1/RegisterRunnerRequest";
import { timingSafeEqual } from "node:crypto";
import type { CiDeps } from "../deps.ts";
import { createRunner } from "./create-runner.ts";

const sameSecret = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * POST /runners (GitLab's legacy registration-token flow): the instance registration token
 * (QUARRY_RUNNER_REGISTRATION_TOKEN) registers an instance runner. Without a configured token
 * registration is closed, as on GitLab instances that disabled it: 403.
 */
export const registerRunner =
  (deps: CiDeps) =>
  async (req: RegisterRunnerRequest__Output): Promise<CreateRunnerResponse> => {
    const expected = deps.settings.runnerRegistrationToken;
    if (!expected || !req.registrationToken || !sameSecret(req.registrationToken, expected)) throw forbidden();
    return createRunner(deps)({
      runnerType: "instance_type",
      projectId: 0,
      groupId: 0,
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
