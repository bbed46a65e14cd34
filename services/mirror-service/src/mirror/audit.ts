// Audit records of push mirror changes, written to the outbox in the change's transaction and
// published on `quarry.audit.event` for activity-service (which fills in the project's path).
import { type AuditRecordEvent, Subjects, enqueueEvent } from "@quarry/bus";
import type { Actor__Output } from "@quarry/proto";
import type { Prisma } from "../generated/prisma/client.ts";

/** A request whose actor (appended for audit events) callers inside the service may leave out. */
export type WithActor<T extends { actor: unknown }> = Omit<T, "actor"> & { actor?: Actor__Output | null };

/** Writes the audit record of a push mirror created, updated or destroyed (nothing without an actor). */
export async function enqueueMirrorAudit(
  tx: Prisma.TransactionClient,
  kind: "created" | "updated" | "destroyed",
  mirror: { id: number; projectId: number },
  actor: Actor__Output | null | undefined,
): Promise<void> {
  if (!actor?.userId) return;
  const verb = kind === "created" ? "Created" : kind === "updated" ? "Updated" : "Deleted";
  const record: Omit<AuditRecordEvent, "event_id"> = {
    event_name: `remote_mirror_${kind}`,
    actor: { user_id: Number(actor.userId), ip_address: actor.ipAddress ?? "" },
    entity_type: "Project",
    entity_id: mirror.projectId,
    entity_path: "",
    target_type: "RemoteMirror",
    target_id: mirror.id,
    // Not the URL: it may carry credentials.
    target_details: String(mirror.id),
    details: { custom_message: `${verb} push mirror with id ${mirror.id}` },
  };
  await enqueueEvent(tx, Subjects.audit, record as unknown as Record<string, unknown>);
}
