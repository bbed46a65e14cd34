// GitLab's emoji webhook payload (Gitlab::DataBuilder::Emoji) from collab-service's event: the
// event carries the award, note and issue; the user and project hook attributes come from
// identity-service, and web URLs get the instance's external URL in front.
import { VISIBILITY_LEVEL } from "@quarry/gitlab";
import { isNotFound } from "@quarry/grpc";
import type { Project__Output as Project } from "@quarry/proto/types/identity/v1/Project";
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import type { HookDeps } from "../deps.ts";

type Payload = Record<string, unknown>;
type Actor = { userId: number; isAdmin: boolean; system?: string };

/** User#hook_attrs: `email` is User#webhook_email, the public email or "[REDACTED]". */
export function userHookAttrs(u: User, base: string) {
  return {
    id: Number(u.id),
    name: u.name,
    username: u.username,
    avatar_url: u.avatar ? `${base}/uploads/-/system/user/avatar/${u.id}/${encodeURIComponent(u.avatar)}` : null,
    email: u.publicEmail || "[REDACTED]",
  };
}

/** Project#hook_attrs, with Quarry's clone URLs. */
export function projectHookAttrs(p: Project, base: string) {
  const full = p.pathWithNamespace;
  const webUrl = `${base}/${full}`;
  const sshUrl = `git@${new URL(base).hostname}:${full}.git`;
  const httpUrl = `${base}/${full}.git`;
  return {
    id: Number(p.id),
    name: p.name,
    description: p.description || null,
    web_url: webUrl,
    avatar_url: p.avatar ? `${base}/uploads/-/system/project/avatar/${p.id}/${encodeURIComponent(p.avatar)}` : null,
    git_ssh_url: sshUrl,
    git_http_url: httpUrl,
    namespace: p.namespace?.name ?? "",
    visibility_level: VISIBILITY_LEVEL[p.visibility] ?? 0,
    path_with_namespace: full,
    default_branch: p.defaultBranch || null,
    ci_config_path: p.ciConfigPath || null,
    homepage: webUrl,
    url: sshUrl,
    ssh_url: sshUrl,
    http_url: httpUrl,
  };
}

/** A record's URL fields, made absolute (collab-service sends paths below the external URL). */
export function withBase(record: unknown, keys: readonly string[], base: string): unknown {
  if (!record || typeof record !== "object") return record;
  const out = { ...(record as Payload) };
  for (const k of keys) if (typeof out[k] === "string" && (out[k] as string).startsWith("/")) out[k] = `${base}${out[k]}`;
  return out;
}

/** Project#hook_attrs.slice(:name, :url, :description, :homepage): GitLab's deprecated `repository` of issue and note hooks. */
export function repositoryHookAttrs(project: ReturnType<typeof projectHookAttrs>) {
  return { name: project.name, url: project.url, description: project.description, homepage: project.homepage };
}

/** The event's project and user from identity-service as `actor`; null for either one gone. */
export async function projectAndUser(
  deps: Pick<HookDeps, "identity">,
  actor: Actor,
  projectId: unknown,
  userId: unknown,
): Promise<{ project: Project | null; user: User | null }> {
  const orGone = <T>(p: Promise<T>) =>
    p.catch((err: unknown) => {
      if (isNotFound(err)) return null;
      throw err;
    });
  const [project, user] = await Promise.all([
    orGone(deps.identity.GetProject({ actor, idOrPath: String(projectId) })),
    orGone(deps.identity.GetUser({ actor, id: Number(userId) })),
  ]);
  return { project, user };
}

/**
 * The payload hooks receive, in GitLab's key order; null when the project is gone (its hooks are
 * too). A deleted user shows as null.
 */
export async function buildEmojiPayload(deps: Pick<HookDeps, "identity" | "settings">, actor: Actor, data: Payload): Promise<Payload | null> {
  const base = deps.settings.instanceUrl.replace(/\/+$/, "");
  const { project, user } = await projectAndUser(deps, actor, data.project_id, data.user_id);
  if (!project) return null;
  return {
    object_kind: "emoji",
    event_type: data.event_type,
    user: user ? userHookAttrs(user, base) : null,
    project_id: Number(project.id),
    project: projectHookAttrs(project, base),
    object_attributes: withBase(data.object_attributes, ["awarded_on_url"], base),
    ...(data.note ? { note: withBase(data.note, ["url"], base) } : {}),
    ...(data.issue ? { issue: withBase(data.issue, ["url"], base) } : {}),
    ...(data.snippet ? { snippet: withBase(data.snippet, ["url"], base) } : {}),
  };
}
