import type { Environment__Output as Environment } from "@quarry/proto/types/ci/v1/Environment";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import { deploymentEntity, environmentBasic } from "./deployment.ts";
import type { UsersById } from "./job.ts";
import type { CiUrls } from "./pipeline.ts";
import { projectSimple } from "./project.ts";

/**
 * API::Entities::Environment: the basic fields, tier, the project (BasicProjectDetails), state and
 * auto_stop_at (never set here: no `auto_stop_in`). The single environment is presented as GitLab's
 * GET …/environments/:id does it (`single`: the users of its last deployment): without `project`,
 * with `last_deployment` (null when none) whose own `environment` is left out.
 */
export function environmentEntity(e: Environment, project: Project, u: CiUrls, single?: { lastDeployment: UsersById }) {
  const lastDeployment = () => {
    if (!e.lastDeployment || !single) return null;
    const { environment: _self, ...deployment } = deploymentEntity(e.lastDeployment, single.lastDeployment, u);
    return deployment;
  };
  return {
    ...environmentBasic(e),
    tier: e.tier,
    ...(single ? { last_deployment: lastDeployment() } : { project: projectSimple(project, u) }),
    state: e.state,
    auto_stop_at: null as string | null,
  };
}
