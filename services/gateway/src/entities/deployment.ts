import type { Deployment__Output as Deployment } from "@quarry/proto/types/ci/v1/Deployment";
import type { Environment__Output as Environment } from "@quarry/proto/types/ci/v1/Environment";
import { jobEntity, type UsersById } from "./job.ts";
import type { CiUrls } from "./pipeline.ts";
import { orNull } from "./urls.ts";
import { userBasic } from "./user.ts";

/** API::Entities::EnvironmentBasic (here, as deployments embed it and environment.ts builds on it). */
export function environmentBasic(e: Environment) {
  return {
    id: Number(e.id),
    name: e.name,
    slug: e.slug,
    external_url: orNull(e.externalUrl),
    created_at: e.createdAt,
    updated_at: e.updatedAt,
  };
}

/** API::Entities::Deployment: the deploying user (UserBasic), the environment (EnvironmentBasic) and the job (Ci::Job). */
export function deploymentEntity(d: Deployment, users: UsersById, u: CiUrls) {
  const user = users.get(Number(d.userId));
  return {
    id: Number(d.id),
    iid: Number(d.iid),
    ref: d.ref,
    sha: d.sha,
    created_at: d.createdAt,
    updated_at: d.updatedAt,
    user: user ? userBasic(user, u) : null,
    environment: d.environment ? environmentBasic(d.environment) : null,
    deployable: d.deployable ? jobEntity(d.deployable, users, u) : null,
    status: d.status,
  };
}
