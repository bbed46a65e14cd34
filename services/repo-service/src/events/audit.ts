// Audit records repo-service publishes on `quarry.audit.event` (protected branches): activity-service
// records them; the entity's path is filled in there (repo-service knows projects by id only).
import { type AuditRecordEvent, Subjects, enqueueEvent } from "@quarry/bus";
import type { Actor__Output } from "@quarry/proto";
import type { Prisma } from "../generated/prisma/client.ts";

type Tx = Prisma.TransactionClient;

/** A request whose actor (appended for audit events) callers inside the service may leave out. */
export type WithActor<T extends { actor: unknown }> = Omit<T, "actor"> & { actor?: Actor__Output | null };

/** A protected-branch rule created, changed or removed, on its project (nothing without an actor). */
export async function enqueueProtectedBranchAudit(
  tx: Tx,
  kind: "created" | "updated" | "removed",
  rule: { id: number; projectId: number; name: string },
  actor: Actor__Output | null | undefined,
): Promise<void> {
  if (!actor?.userId) return;
  const details: Record<string, string> =
    kind === "created"
      ? { add: "protected_branch" }
      : kind === "removed"
        ? { remove: "protected_branch" }
        : { custom_message: `Changed protected branch ${rule.name}` };
  const record: Omit<AuditRecordEvent, "event_id"> = {
    event_name: `protected_branch_${kind}`,
    actor: { user_id: Number(actor.userId), ip_address: actor.ipAddress ?? "" },
    entity_type: "Project",
    entity_id: rule.projectId,
    entity_path: "",
    target_type: "ProtectedBranch",
    target_id: rule.id,
    target_details: rule.name,
    details,
  };
  await enqueueEvent(tx, Subjects.audit, record as unknown as Record<string, unknown>);
}
