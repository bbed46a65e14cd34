import { AccessLevel } from "@quarry/gitlab";
import { paramError } from "@quarry/grpc";
import type { AuthorizeRequest__Output } from "@quarry/proto/types/identity/v1/AuthorizeRequest";
import type { AuthorizeResponse } from "@quarry/proto/types/identity/v1/AuthorizeResponse";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { groupToProto, projectToProto } from "./convert.ts";
import { CREATION_LEVEL } from "./levels.ts";
import { requireLevel, visibleGroup, visibleProject } from "./lookup.ts";

/** Minimum level per project action; reading is decided by visibility alone. */
const PROJECT_ACTIONS: Record<string, number> = {
  read_project: 0,
  read_repository: 0,
  download_code: 0,
  read_build: 0,
  push_code: AccessLevel.DEVELOPER,
  update_build: AccessLevel.DEVELOPER,
  create_pipeline: AccessLevel.DEVELOPER,
  admin_project: AccessLevel.MAINTAINER,
  destroy_pipeline: AccessLevel.OWNER,
  remove_project: AccessLevel.OWNER,
};

/**
 * Code, jobs and pipelines of a private project are for Reporters and above: Guests see the
 * project, not its repository or its CI.
 */
const REPORTER_ACTIONS_WHEN_PRIVATE = new Set(["read_repository", "download_code", "read_build"]);

const GROUP_ACTIONS = new Set(["read_group", "admin_group", "create_projects", "create_subgroup"]);

/**
 * "May the actor do this?" Invisible targets are NOT_FOUND (GitLab's 404), visible ones with too
 * low a role PERMISSION_DENIED (403); success returns the target and the actor's level.
 */
export const authorize =
  (deps: IdentityDeps) =>
  async (req: AuthorizeRequest__Output): Promise<AuthorizeResponse> => {
    const actor = actorOf(req.actor);
    if (req.project) {
      const min = PROJECT_ACTIONS[req.action];
      if (min === undefined) throw paramError("action does not have a valid value");
      const { project, levels } = await visibleProject(deps.prisma, actor, req.project);
      if (min > 0) requireLevel(actor, levels.effective, min);
      if (REPORTER_ACTIONS_WHEN_PRIVATE.has(req.action) && project.visibility === "private") requireLevel(actor, levels.effective, AccessLevel.REPORTER);
      return { accessLevel: levels.effective, project: projectToProto(project, levels) };
    }
    if (req.group) {
      if (!GROUP_ACTIONS.has(req.action)) throw paramError("action does not have a valid value");
      const { group, level } = await visibleGroup(deps.prisma, actor, req.group);
      if (req.action === "admin_group") requireLevel(actor, level, AccessLevel.OWNER);
      if (req.action === "create_projects") requireLevel(actor, level, CREATION_LEVEL[group.projectCreationLevel] ?? AccessLevel.DEVELOPER);
      if (req.action === "create_subgroup") requireLevel(actor, level, CREATION_LEVEL[group.subgroupCreationLevel] ?? AccessLevel.MAINTAINER);
      return { accessLevel: level, group: groupToProto(group, level) };
    }
    throw paramError("project or group is missing");
  };
