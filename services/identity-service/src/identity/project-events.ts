import { Subjects } from "@quarry/bus";
import type { Tx } from "../deps.ts";
import type { ProjectRow } from "./convert.ts";
import { enqueueEvent } from "@quarry/bus";
import { type ActorInfo, eventActor } from "./access.ts";

function projectEventFields(p: ProjectRow) {
  const owner = p.namespace.owner;
  return {
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
    project_id: p.id,
    name: p.name,
    path: p.path,
    path_with_namespace: `${p.namespace.fullPath}/${p.path}`,
    project_namespace_id: p.namespaceId,
    project_visibility: p.visibility,
    owner_name: owner?.name ?? p.namespace.name,
    owner_email: owner?.email ?? "",
    owners: owner ? [{ name: owner.name, email: owner.email }] : [],
  };
}

export function enqueueProjectCreate(tx: Tx, p: ProjectRow, actor?: ActorInfo) {
  return enqueueEvent(tx, Subjects.projectCreate, { event_name: "project_create", ...projectEventFields(p), ...eventActor(actor) });
}

export function enqueueProjectDestroy(tx: Tx, p: ProjectRow, actor?: ActorInfo) {
  return enqueueEvent(tx, Subjects.projectDestroy, { event_name: "project_destroy", ...projectEventFields(p), ...eventActor(actor) });
}

/**
 * A path change (GitLab's project_rename system hook, which also drives project_was_moved mails);
 * a move to another namespace is GitLab's project_transfer.
 */
export function enqueueProjectRename(
  tx: Tx,
  p: ProjectRow,
  oldPathWithNamespace: string,
  eventName: "project_rename" | "project_transfer" = "project_rename",
  actor?: ActorInfo,
) {
  return enqueueEvent(tx, Subjects.projectRename, {
    event_name: eventName,
    ...projectEventFields(p),
    old_path_with_namespace: oldPathWithNamespace,
    ...eventActor(actor),
  });
}
