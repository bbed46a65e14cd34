// Group member events (GitLab's GroupMember#execute_hooks_for with Gitlab::HookData::GroupMemberBuilder):
// written to the outbox in the membership change's transaction. Project memberships publish none, as in GitLab.
import { type AuditRecordEvent, type GroupMemberEvent, Subjects, enqueueEvent } from "@quarry/bus";
import { accessLevelName } from "@quarry/gitlab";
import type { Tx } from "../deps.ts";
import { type ActorInfo, eventActor } from "./access.ts";

const SUBJECTS = {
  user_add_to_group: Subjects.userAddToGroup,
  user_update_for_group: Subjects.userUpdateForGroup,
  user_remove_from_group: Subjects.userRemoveFromGroup,
} as const;

export type GroupMemberEventName = keyof typeof SUBJECTS;

/** The membership fields the payload needs (a `member` row with its user). */
export interface MemberWithUser {
  sourceId: number;
  accessLevel: number;
  expiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  user: { id: number; username: string; name: string; publicEmail: string };
}

/** Ruby's Time#xmlschema in UTC: whole seconds, `Z`. */
const xmlschema = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

/** The GitLab payload of a group membership event, without event_id. */
export async function groupMemberPayload(tx: Tx, eventName: GroupMemberEventName, m: MemberWithUser): Promise<Omit<GroupMemberEvent, "event_id">> {
  const group = await tx.namespace.findUniqueOrThrow({ where: { id: m.sourceId }, select: { id: true, name: true, path: true } });
  return {
    created_at: xmlschema(m.createdAt),
    updated_at: xmlschema(m.updatedAt),
    group_name: group.name,
    group_path: group.path,
    group_id: group.id,
    user_username: m.user.username,
    user_name: m.user.name,
    // User#webhook_email: webhooks carry no private address.
    user_email: m.user.publicEmail || "[REDACTED]",
    user_id: m.user.id,
    group_access: accessLevelName(m.accessLevel) ?? String(m.accessLevel),
    // A date column: Date#xmlschema is its midnight in the (UTC) zone.
    expires_at: m.expiresAt ? xmlschema(m.expiresAt) : null,
    group_plan: null,
    event_name: eventName,
  };
}

/** Writes the event to the outbox (call inside the change's transaction, then kick the relay). */
export async function enqueueGroupMemberEvent(tx: Tx, eventName: GroupMemberEventName, m: MemberWithUser, actor?: ActorInfo): Promise<string> {
  return enqueueEvent(tx, SUBJECTS[eventName], { ...(await groupMemberPayload(tx, eventName, m)), ...eventActor(actor) });
}

/**
 * A project membership added, changed or removed: no webhook in GitLab, but an audit event
 * (member_created / member_updated / member_destroyed on the project), published on
 * `quarry.audit.event` for activity-service alone.
 */
export async function enqueueProjectMemberAudit(
  tx: Tx,
  kind: "created" | "updated" | "destroyed",
  m: MemberWithUser,
  actor: ActorInfo,
  previousLevel?: number,
): Promise<string> {
  const project = await tx.project.findUniqueOrThrow({
    where: { id: m.sourceId },
    select: { id: true, path: true, namespace: { select: { fullPath: true } } },
  });
  const level = accessLevelName(m.accessLevel) ?? String(m.accessLevel);
  const details: Record<string, string> =
    kind === "created"
      ? { add: "user_access", as: level, expiry: m.expiresAt ? m.expiresAt.toISOString().slice(0, 10) : "never" }
      : kind === "updated"
        ? { change: "access_level", from: accessLevelName(previousLevel ?? 0) ?? String(previousLevel ?? ""), to: level }
        : { remove: "user_access" };
  const record: Omit<AuditRecordEvent, "event_id"> = {
    event_name: `member_${kind}`,
    actor: eventActor(actor).actor!,
    entity_type: "Project",
    entity_id: project.id,
    entity_path: `${project.namespace.fullPath}/${project.path}`,
    target_type: "User",
    target_id: m.user.id,
    target_details: m.user.username,
    details,
  };
  return enqueueEvent(tx, Subjects.audit, record as unknown as Record<string, unknown>);
}
