// GitLab's merge request webhook payload (Gitlab::DataBuilder::Issuable of a MergeRequest) from
// collab-service's event: the event carries the merge request's attributes, labels, changes and
// assignee/reviewer ids; the user, project, repository and the users' User#hook_attrs come from
// identity-service. The event's `ci` block (for ci-service) is not part of the webhook.
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";
import type { HookDeps } from "../deps.ts";
import { projectAndUser, projectHookAttrs, repositoryHookAttrs, userHookAttrs, withBase } from "./emoji-payload.ts";

type Payload = Record<string, unknown>;
type Actor = { userId: number; isAdmin: boolean; system?: string };

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0) : []);

/**
 * The payload hooks receive, in GitLab's key order (object_kind, event_type, user, project,
 * object_attributes, labels, changes, repository, then assignees and reviewers when there are any);
 * null when the project is gone. Ids in `assignee_ids`, `reviewer_ids` and in `changes.assignees`
 * / `changes.reviewers` become User#hook_attrs in one GetUsers call.
 */
export async function buildMergeRequestPayload(deps: Pick<HookDeps, "identity" | "settings">, actor: Actor, data: Payload): Promise<Payload | null> {
  const base = deps.settings.instanceUrl.replace(/\/+$/, "");
  const changes = { ...((data.changes as Payload | undefined) ?? {}) };
  const userChanges = (["assignees", "reviewers"] as const).map((k) => [k, changes[k] as { previous?: unknown; current?: unknown } | undefined] as const);
  const assigneeIds = ids(data.assignee_ids);
  const reviewerIds = ids(data.reviewer_ids);
  const wanted = [...new Set([...assigneeIds, ...reviewerIds, ...userChanges.flatMap(([, c]) => [...ids(c?.previous), ...ids(c?.current)])])];
  const [{ project, user }, users] = await Promise.all([
    projectAndUser(deps, actor, data.project_id, data.user_id),
    wanted.length ? deps.identity.GetUsers({ actor, ids: wanted }).then((r) => r.users) : Promise.resolve([] as User[]),
  ]);
  if (!project) return null;
  const byId = new Map(users.map((u) => [Number(u.id), userHookAttrs(u, base)]));
  const expand = (list: unknown) => ids(list).flatMap((id) => byId.get(id) ?? []);
  for (const [key, change] of userChanges) if (change) changes[key] = { previous: expand(change.previous), current: expand(change.current) };
  const projectAttrs = projectHookAttrs(project, base);
  const attributes = withBase(data.object_attributes, ["url"], base) as Payload;
  for (const side of ["source", "target"] as const) if (attributes[side] === undefined) attributes[side] = projectAttrs;
  const assignees = expand(assigneeIds);
  const reviewers = expand(reviewerIds);
  return {
    object_kind: "merge_request",
    event_type: "merge_request",
    user: user ? userHookAttrs(user, base) : null,
    project: projectAttrs,
    object_attributes: attributes,
    labels: Array.isArray(data.labels) ? data.labels : [],
    changes,
    repository: repositoryHookAttrs(projectAttrs),
    ...(assignees.length ? { assignees } : {}),
    ...(reviewers.length ? { reviewers } : {}),
  };
}
