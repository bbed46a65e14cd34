// Audit records identity-service publishes on `quarry.audit.event` where no domain event says enough
// (tokens, authentication with a token): activity-service records them; no webhook sees them.
import { type AuditRecordEvent, Subjects, enqueueEvent } from "@quarry/bus";
import type { PrismaClient, Tx } from "../deps.ts";
import type { ActorInfo } from "./access.ts";

/** Writes an audit record to the outbox (inside the change's transaction; kick the relay after). */
export function enqueueAuditRecord(tx: Tx | PrismaClient, record: Omit<AuditRecordEvent, "event_id">): Promise<string> {
  return enqueueEvent(tx as Tx, Subjects.audit, record as unknown as Record<string, unknown>);
}

/** A personal access or impersonation token created or revoked: an event on the token's user. */
export async function enqueueTokenAudit(
  tx: Tx,
  kind: "created" | "revoked",
  token: { id: number; userId: number; name: string; impersonation: boolean },
  actor: ActorInfo,
): Promise<string> {
  const user = await tx.user.findUniqueOrThrow({ where: { id: token.userId }, select: { username: true } });
  const what = token.impersonation ? "impersonation token" : "personal access token";
  return enqueueAuditRecord(tx, {
    event_name: `${token.impersonation ? "impersonation_token" : "personal_access_token"}_${kind}`,
    actor: { user_id: actor.userId, ip_address: actor.ipAddress ?? "" },
    entity_type: "User",
    entity_id: token.userId,
    entity_path: user.username,
    target_type: "PersonalAccessToken",
    target_id: token.id,
    target_details: token.name,
    details: { custom_message: `${kind === "created" ? "Created" : "Revoked"} ${what} with id ${token.id}` },
  });
}

/** A group's path, name or parent changed: GitLab's change/from/to on the group. */
export function enqueueGroupChangeAudit(
  tx: Tx,
  eventName: "group_path_updated" | "group_name_updated" | "group_parent_updated",
  group: { id: number; fullPath: string },
  change: { change: string; from: string; to: string },
  actor: ActorInfo,
): Promise<string> {
  return enqueueAuditRecord(tx, {
    event_name: eventName,
    actor: { user_id: actor.userId, ip_address: actor.ipAddress ?? "" },
    entity_type: "Group",
    entity_id: group.id,
    entity_path: group.fullPath,
    target_type: "Group",
    target_id: group.id,
    target_details: group.fullPath,
    details: change,
  });
}
