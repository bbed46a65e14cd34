// Audit records of webhook changes (GitLab's webhook_created / _updated / _destroyed events),
// written to the outbox in the change's transaction and published on `quarry.audit.event` for
// activity-service (which fills in the project's or group's path).
import { type AuditRecordEvent, Subjects, enqueueEvent } from "@quarry/bus";
import type { Actor__Output } from "@quarry/proto";
import type { Prisma } from "../generated/prisma/client.ts";

/** A request whose actor (appended for audit events) callers inside the service may leave out. */
export type WithActor<T extends { actor: unknown }> = Omit<T, "actor"> & { actor?: Actor__Output | null };

/** Writes the audit record of a hook created, updated or destroyed (nothing without an actor). */
export async function enqueueHookAudit(
  tx: Prisma.TransactionClient,
  kind: "created" | "updated" | "destroyed",
  hook: { id: number; projectId: number | null; groupId: number | null },
  actor: Actor__Output | null | undefined,
): Promise<void> {
  if (!actor?.userId) return;
  const verb = kind === "created" ? "Created" : kind === "updated" ? "Updated" : "Deleted";
  const group = hook.groupId !== null && hook.groupId !== undefined;
  const record: Omit<AuditRecordEvent, "event_id"> = {
    event_name: `webhook_${kind}`,
    actor: { user_id: Number(actor.userId), ip_address: actor.ipAddress ?? "" },
    entity_type: group ? "Group" : "Project",
    entity_id: Number(group ? hook.groupId : hook.projectId),
    entity_path: "",
    target_type: group ? "GroupHook" : "ProjectHook",
    target_id: hook.id,
    // Not the URL: it may carry credentials and URL variables.
    target_details: String(hook.id),
    details: { custom_message: `${verb} ${group ? "group" : "project"} webhook with id ${hook.id}` },
  };
  await enqueueEvent(tx, Subjects.audit, record as unknown as Record<string, unknown>);
}
