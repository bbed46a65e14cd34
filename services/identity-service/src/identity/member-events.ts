// Group member events (GitLab's GroupMember#execute_hooks_for with Gitlab::HookData::GroupMemberBuilder):
// written to the outbox in the membership change's transaction. Project memberships publish none, as in GitLab.
import { type GroupMemberEvent, Subjects, enqueueEvent } from "@quarry/bus";
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
