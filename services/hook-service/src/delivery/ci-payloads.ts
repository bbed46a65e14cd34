// GitLab's pipeline, job and deployment webhook payloads (Gitlab::DataBuilder::Pipeline, ::Build,
// ::Deployment) from ci-service's events, which carry everything but what identity-service knows:
// the user (`user_id`, and each build's), the project and the repository. Web URLs in the events
// are paths below the external URL; they are made absolute here.
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import type { HookDeps } from "../deps.ts";
import { projectAndUser, projectHookAttrs, userHookAttrs, withBase } from "./emoji-payload.ts";

type Payload = Record<string, unknown>;
type Actor = { userId: number; isAdmin: boolean; system?: string };
type Deps = Pick<HookDeps, "identity" | "settings">;

const baseOf = (deps: Deps) => deps.settings.instanceUrl.replace(/\/+$/, "");

/**
 * Pipeline Hook: object_kind, object_attributes, merge_request, user, project, commit, builds
 * (each build's `user_id` becomes its `user`); null when the project is gone.
 */
export async function buildPipelinePayload(deps: Deps, actor: Actor, data: Payload): Promise<Payload | null> {
  const base = baseOf(deps);
  const builds = Array.isArray(data.builds) ? (data.builds as Payload[]) : [];
  const builders = [...new Set(builds.map((b) => Number(b.user_id)).filter((id) => id > 0 && id !== Number(data.user_id)))];
  const [{ project, user }, others] = await Promise.all([
    projectAndUser(deps, actor, data.project_id, data.user_id),
    builders.length ? deps.identity.GetUsers({ actor, ids: builders }).then((r) => r.users) : Promise.resolve([] as User[]),
  ]);
  if (!project) return null;
  const users = new Map([...others, ...(user ? [user] : [])].map((u) => [Number(u.id), userHookAttrs(u, base)]));
  return {
    object_kind: "pipeline",
    object_attributes: withBase(data.object_attributes, ["url"], base),
    merge_request: data.merge_request ? withBase(data.merge_request, ["url"], base) : null,
    user: user ? userHookAttrs(user, base) : null,
    project: projectHookAttrs(project, base),
    commit: data.commit ? withBase(data.commit, ["url"], base) : null,
    builds: builds.map(({ user_id, ...build }) => {
      const { environment, ...rest } = build;
      return { ...rest, user: users.get(Number(user_id)) ?? null, environment };
    }),
  };
}

/**
 * Job Hook: the event's build attributes in GitLab's order with project_name, `user`, the commit,
 * `repository` (Gitlab::DataBuilder::Build's) and `project` added; null when the project is gone.
 */
export async function buildJobPayload(deps: Deps, actor: Actor, data: Payload): Promise<Payload | null> {
  const base = baseOf(deps);
  const { project, user } = await projectAndUser(deps, actor, data.project_id, data.user_id);
  if (!project) return null;
  const attrs = projectHookAttrs(project, base);
  const { event_id: _id, user_id: _user, runner, project_id, commit, environment, retries_count, ...build } = data;
  return {
    ...build,
    pipeline_id: data.pipeline_id,
    runner,
    project_id,
    project_name: project.nameWithNamespace,
    user: user ? userHookAttrs(user, base) : null,
    commit,
    repository: {
      name: attrs.name,
      url: attrs.url,
      description: attrs.description,
      homepage: attrs.homepage,
      git_http_url: attrs.git_http_url,
      git_ssh_url: attrs.git_ssh_url,
      visibility_level: attrs.visibility_level,
    },
    project: attrs,
    environment,
    retries_count,
  };
}

/** Deployment Hook: the event with `project`, `user` and `user_url` in GitLab's order, URLs absolute; null when the project is gone. */
export async function buildDeploymentPayload(deps: Deps, actor: Actor, data: Payload): Promise<Payload | null> {
  const base = baseOf(deps);
  const { project, user } = await projectAndUser(deps, actor, data.project_id, data.user_id);
  if (!project) return null;
  const abs = withBase(data, ["deployable_url", "commit_url"], base) as Payload;
  return {
    object_kind: "deployment",
    status: abs.status,
    status_changed_at: abs.status_changed_at,
    deployment_id: abs.deployment_id,
    deployable_id: abs.deployable_id,
    deployable_url: abs.deployable_url,
    environment: abs.environment,
    environment_tier: abs.environment_tier,
    environment_slug: abs.environment_slug,
    environment_external_url: abs.environment_external_url,
    project: projectHookAttrs(project, base),
    short_sha: abs.short_sha,
    user: user ? userHookAttrs(user, base) : null,
    user_url: user ? `${base}/${user.username}` : null,
    commit_url: abs.commit_url,
    commit_title: abs.commit_title,
    ref: abs.ref,
  };
}
