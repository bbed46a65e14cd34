import type { Environment__Output as Environment } from "@quarry/proto/types/ci/v1/Environment";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import { deploymentEntity, environmentBasic } from "./deployment.ts";
import type { UsersById } from "./job.ts";
import type { CiUrls } from "./pipeline.ts";
import { projectSimple } from "./project.ts";

/**
 * API::Entities::Environment: the basic fields, tier, the project (BasicProjectDetails), state and
 * auto_stop_at (never set here: no `auto_stop_in`); `last_deployment` only for the single
 * environment (GitLab presents it with `last_deployment: true` there alone).
 */
export function environmentEntity(e: Environment, project: Project, u: CiUrls, users?: UsersById) {
  return {
    ...environmentBasic(e),
    tier: e.tier,
    project: projectSimple(project, u),
    ...(users ? { last_deployment: e.lastDeployment ? deploymentEntity(e.lastDeployment, users, u) : null } : {}),
    state: e.state,
    auto_stop_at: null as string | null,
  };
}
