// GitLab's note webhook payload (Gitlab::DataBuilder::Note) from collab-service's event: the event
// carries the note and its issue or snippet; the user, project and repository come from
// identity-service, and web URLs get the instance's external URL in front.
import type { HookDeps } from "../deps.ts";
import { projectAndUser, projectHookAttrs, repositoryHookAttrs, userHookAttrs, withBase } from "./emoji-payload.ts";

type Payload = Record<string, unknown>;
type Actor = { userId: number; isAdmin: boolean; system?: string };

/**
 * The payload hooks receive, in GitLab's key order (object_kind, event_type, user, project_id,
 * project, object_attributes, repository, then the noteable); null when the project is gone.
 * A deleted author shows as null.
 */
export async function buildNotePayload(deps: Pick<HookDeps, "identity" | "settings">, actor: Actor, data: Payload): Promise<Payload | null> {
  const base = deps.settings.instanceUrl.replace(/\/+$/, "");
  const { project, user } = await projectAndUser(deps, actor, data.project_id, data.user_id);
  if (!project) return null;
  const projectAttrs = projectHookAttrs(project, base);
  return {
    object_kind: "note",
    event_type: data.event_type,
    user: user ? userHookAttrs(user, base) : null,
    project_id: Number(project.id),
    project: projectAttrs,
    object_attributes: withBase(data.object_attributes, ["url"], base),
    repository: repositoryHookAttrs(projectAttrs),
    ...(data.issue ? { issue: withBase(data.issue, ["url"], base) } : {}),
    ...(data.snippet ? { snippet: withBase(data.snippet, ["url"], base) } : {}),
  };
}
