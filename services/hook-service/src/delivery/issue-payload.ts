// GitLab's issue webhook payload (Gitlab::DataBuilder::Issuable of an Issue) from collab-service's
// event: the event carries the issue's attributes, labels, changes and assignee ids; the user,
// project, repository and the assignees' User#hook_attrs come from identity-service.
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import type { HookDeps } from "../deps.ts";
import { projectAndUser, projectHookAttrs, repositoryHookAttrs, userHookAttrs, withBase } from "./emoji-payload.ts";

type Payload = Record<string, unknown>;
type Actor = { userId: number; isAdmin: boolean; system?: string };

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0) : []);

/**
 * The payload hooks receive, in GitLab's key order (object_kind, event_type, user, project,
 * object_attributes, labels, changes, repository, and assignees when there are any); null when
 * the project is gone. Assignee ids (current and in `changes.assignees`) become User#hook_attrs
 * in one GetUsers call; users deleted since are left out, a deleted actor is null.
 */
export async function buildIssuePayload(deps: Pick<HookDeps, "identity" | "settings">, actor: Actor, data: Payload): Promise<Payload | null> {
  const base = deps.settings.instanceUrl.replace(/\/+$/, "");
  const changes = { ...((data.changes as Payload | undefined) ?? {}) };
  const assigneeChange = changes.assignees as { previous?: unknown; current?: unknown } | undefined;
  const assigneeIds = ids(data.assignee_ids);
  const wanted = [...new Set([...assigneeIds, ...ids(assigneeChange?.previous), ...ids(assigneeChange?.current)])];
  const [{ project, user }, users] = await Promise.all([
    projectAndUser(deps, actor, data.project_id, data.user_id),
    wanted.length ? deps.identity.GetUsers({ actor, ids: wanted }).then((r) => r.users) : Promise.resolve([] as User[]),
  ]);
  if (!project) return null;
  const byId = new Map(users.map((u) => [Number(u.id), userHookAttrs(u, base)]));
  const expand = (list: unknown) => ids(list).flatMap((id) => byId.get(id) ?? []);
  if (assigneeChange) changes.assignees = { previous: expand(assigneeChange.previous), current: expand(assigneeChange.current) };
  const projectAttrs = projectHookAttrs(project, base);
  const assignees = expand(assigneeIds);
  return {
    object_kind: "issue",
    event_type: data.event_type,
    user: user ? userHookAttrs(user, base) : null,
    project: projectAttrs,
    object_attributes: withBase(data.object_attributes, ["url"], base),
    labels: Array.isArray(data.labels) ? data.labels : [],
    changes,
    repository: repositoryHookAttrs(projectAttrs),
    ...(assignees.length ? { assignees } : {}),
  };
}
