// The sample payload of a test delivery (GitLab's TestHooks::ProjectService#push_events_data and
// Gitlab::DataBuilder::Push.build_sample): the default branch's last three commits of the hook's
// project, or, for a group hook, of the first project of the group or its subgroups.
import { status } from "@grpc/grpc-js";
import { buildPushEvent, type PushPayloadCommit } from "@quarry/bus";
import { branchRef, tagRef } from "@quarry/gitlab";
import { ServiceError } from "@quarry/grpc";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import type { HookDeps } from "../deps.ts";
import type { WebHook } from "../generated/prisma/client.ts";

const unprocessable = (message: string) => new ServiceError(status.FAILED_PRECONDITION, { message }, 422);

/** GitLab's Gitlab::VisibilityLevel numbers. */
const VISIBILITY_LEVEL: Record<string, number> = { private: 0, internal: 10, public: 20 };

/** Who asked for the test: identity-service is read as this user. */
export interface SampleRequester {
  userId: number;
  isAdmin: boolean;
}

/** The project a hook's sample is built from; 422 when a group hook's group has none. */
export async function sampleProject(deps: Pick<HookDeps, "identity">, hook: WebHook, actor: SampleRequester): Promise<Project> {
  if (hook.projectId) return deps.identity.GetProject({ actor, idOrPath: String(hook.projectId) });
  const list = await deps.identity.ListProjects({ actor, namespaceId: hook.groupId!, includeSubgroups: true, page: { page: 1, perPage: 1 } });
  const first = list.projects[0];
  if (!first) throw unprocessable("Ensure the group has a project with commits.");
  return first;
}

/**
 * The payload a test of `trigger` sends: a push or tag push sample, `{}` for other triggers (as
 * GitLab's other samples we do not build). 422 when the project has no commit.
 */
export async function buildTestSample(
  deps: Pick<HookDeps, "identity" | "repo" | "settings">,
  hook: WebHook,
  trigger: string,
  requester: SampleRequester,
): Promise<unknown> {
  if (trigger !== "push_events" && trigger !== "tag_push_events") return {};
  const project = await sampleProject(deps, hook, requester);
  const commits: PushPayloadCommit[] = await deps.repo
    .ListCommits({ diskPath: project.diskPath, refName: project.defaultBranch, defaultBranch: project.defaultBranch, page: 1, perPage: 3 })
    .then((r) => r.commits.map((x) => x.commit!))
    .catch(() => []);
  if (!commits.length) throw unprocessable("Ensure the project has at least one commit.");
  let ref = branchRef(project.defaultBranch);
  if (trigger === "tag_push_events") {
    const tags = await deps.repo.ListTags({ diskPath: project.diskPath, page: 1, perPage: 1 }).catch(() => ({ tags: [] }));
    ref = tagRef(tags.tags[0]?.name ?? project.defaultBranch);
  }
  const user = await deps.identity.GetUser({ actor: requester, id: requester.userId });
  const base = deps.settings.instanceUrl.replace(/\/+$/, "");
  const full = project.pathWithNamespace;
  // Newest first, as listed: before is the oldest of them, after (and checkout) the newest.
  return buildPushEvent({
    context: {
      projectId: Number(project.id),
      projectName: project.name,
      projectDescription: project.description,
      pathWithNamespace: full,
      namespaceName: project.namespace?.name ?? "",
      visibilityLevel: VISIBILITY_LEVEL[project.visibility] ?? 0,
      defaultBranch: project.defaultBranch,
      webUrl: `${base}/${full}`,
      httpUrl: `${base}/${full}.git`,
      sshUrl: `git@${new URL(base).hostname}:${full}.git`,
      ciConfigPath: project.ciConfigPath,
      userId: requester.userId,
      userName: user.name,
      userUsername: user.username,
      userEmail: user.email,
      userAvatar: "",
    },
    before: commits[commits.length - 1]!.id,
    after: commits[0]!.id,
    ref,
    commits: commits.map((commit) => ({ commit })),
  });
}
