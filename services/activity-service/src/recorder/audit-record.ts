// From a bus message to the audit event GitLab would have recorded for it (pure; record.ts stores it).
// Details follow GitLab's AuditEventService: `add: "group"` for a creation, `remove: "project"` for a
// deletion, `change`/`from`/`to` for a change, member events' `add: "user_access"` with `as`.
import type { AuditRecordEvent, EventActor } from "@quarry/bus";

export type EntityType = AuditRecordEvent["entity_type"];

/** An audit event before the author's name and e-mail are looked up. */
export interface AuditDraft {
  sourceEventId: string;
  eventName: string;
  actor: EventActor;
  entityType: EntityType;
  entityId: number;
  entityPath: string;
  targetType: string;
  targetId: number | string;
  targetDetails: string;
  /** add/as, remove, change/from/to, custom_message. */
  action: Record<string, string | number | null>;
}

type Payload = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === "string" ? v : v == null ? "" : String(v));
const num = (v: unknown): number => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : 0;
};

function actorOf(data: Payload): EventActor {
  const a = (data.actor ?? {}) as Partial<EventActor>;
  return { user_id: num(a.user_id), ip_address: str(a.ip_address) };
}

/** The parent path of a full path ("a/b/c" → "a/b"). */
const parentPath = (fullPath: string) => fullPath.slice(0, Math.max(0, fullPath.lastIndexOf("/")));

/**
 * The audit event of a message, or null for messages that are not audited. `previousAccess` gives a
 * member's level before a `user_update_for_group` (the `from` of its change), from earlier records.
 */
export function auditDraft(eventId: string, data: Payload): AuditDraft | null {
  const base = { sourceEventId: eventId, actor: actorOf(data) };
  switch (data.event_name) {
    case "user_create":
    case "user_destroy": {
      const username = str(data.username);
      const create = data.event_name === "user_create";
      return {
        ...base,
        eventName: create ? "user_created" : "user_destroyed",
        entityType: "User",
        entityId: num(data.user_id),
        entityPath: username,
        targetType: "User",
        targetId: num(data.user_id),
        targetDetails: username,
        action: create ? { add: "user" } : { remove: "user" },
      };
    }
    case "group_create":
    case "group_destroy": {
      const fullPath = str(data.full_path);
      const create = data.event_name === "group_create";
      return {
        ...base,
        eventName: create ? "group_created" : "group_destroyed",
        entityType: "Group",
        entityId: num(data.group_id),
        entityPath: fullPath,
        targetType: "Group",
        targetId: num(data.group_id),
        targetDetails: fullPath,
        action: create ? { add: "group" } : { remove: "group" },
      };
    }
    case "project_create":
    case "project_destroy":
    case "project_rename":
    case "project_transfer": {
      const fullPath = str(data.path_with_namespace);
      const common = {
        ...base,
        entityType: "Project" as const,
        entityId: num(data.project_id),
        entityPath: fullPath,
        targetType: "Project",
        targetId: num(data.project_id),
        targetDetails: fullPath,
      };
      if (data.event_name === "project_create") return { ...common, eventName: "project_created", action: { add: "project" } };
      if (data.event_name === "project_destroy") return { ...common, eventName: "project_destroyed", action: { remove: "project" } };
      const old = str(data.old_path_with_namespace);
      if (data.event_name === "project_rename") return { ...common, eventName: "project_path_updated", action: { change: "path", from: old, to: fullPath } };
      return { ...common, eventName: "project_namespace_updated", action: { change: "namespace", from: parentPath(old), to: parentPath(fullPath) } };
    }
    case "user_add_to_group":
    case "user_update_for_group":
    case "user_remove_from_group": {
      const groupId = num(data.group_id);
      const common = {
        ...base,
        entityType: "Group" as const,
        entityId: groupId,
        // The member events carry the group's own path; record.ts replaces it with the full path when it knows one.
        entityPath: str(data.group_path),
        targetType: "User",
        targetId: num(data.user_id),
        targetDetails: str(data.user_username),
      };
      const level = str(data.group_access);
      if (data.event_name === "user_add_to_group") {
        return { ...common, eventName: "member_created", action: { add: "user_access", as: level, expiry: expiry(data.expires_at) } };
      }
      if (data.event_name === "user_remove_from_group") return { ...common, eventName: "member_destroyed", action: { remove: "user_access" } };
      return { ...common, eventName: "member_updated", action: { change: "access_level", from: "", to: level, expiry_to: expiry(data.expires_at) } };
    }
    default:
      return null;
  }
}

/** A member event's expiry as GitLab's audit details show it (the date, or "never"). */
function expiry(v: unknown): string {
  const s = str(v);
  return s ? s.slice(0, 10) : "never";
}

/** The draft of a publisher-built audit record (`quarry.audit.event`). */
export function auditDraftOfRecord(eventId: string, r: AuditRecordEvent): AuditDraft {
  return {
    sourceEventId: eventId,
    eventName: str(r.event_name),
    actor: actorOf(r as unknown as Payload),
    entityType: r.entity_type,
    entityId: num(r.entity_id),
    entityPath: str(r.entity_path),
    targetType: str(r.target_type),
    targetId: r.target_id,
    targetDetails: str(r.target_details),
    action: { ...(r.details ?? {}) },
  };
}
