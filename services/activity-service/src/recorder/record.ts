import { type AuditRecordEvent, type BusMessage, Subjects } from "@quarry/bus";
import type { ActivityDeps } from "../deps.ts";
import { type AuditDraft, auditDraft, auditDraftOfRecord } from "./audit-record.ts";

type Payload = Record<string, unknown>;

/** The details object in GitLab's key order: the action, the author, the target, the address, the entity. */
export function auditDetails(d: AuditDraft, author: { name: string; email: string } | null): Record<string, unknown> {
  return {
    ...d.action,
    author_name: author?.name ?? null,
    author_email: author?.email ?? null,
    author_class: "User",
    target_id: d.targetId,
    target_type: d.targetType,
    target_details: d.targetDetails,
    ip_address: d.actor.ip_address || null,
    entity_path: d.entityPath,
  };
}

/** What the last recorded member event of this user in this group said the level was ("" if none). */
async function previousAccess(deps: Pick<ActivityDeps, "prisma">, d: AuditDraft): Promise<string> {
  const rows = await deps.prisma.auditEvent.findMany({
    where: { entityType: d.entityType, entityId: d.entityId, eventName: { in: ["member_created", "member_updated"] } },
    orderBy: { id: "desc" },
    take: 50,
    select: { details: true },
  });
  for (const r of rows) {
    const det = r.details as Record<string, unknown>;
    if (String(det.target_id) !== String(d.targetId)) continue;
    return String(det.as ?? det.to ?? "");
  }
  return "";
}

/** A group's full path from its earlier records (member events carry only the group's own path). */
async function knownGroupPath(deps: Pick<ActivityDeps, "prisma">, groupId: number): Promise<string | null> {
  const row = await deps.prisma.auditEvent.findFirst({
    where: { entityType: "Group", entityId: groupId, eventName: "group_created" },
    orderBy: { id: "desc" },
    select: { details: true },
  });
  const path = (row?.details as Record<string, unknown> | undefined)?.entity_path;
  return typeof path === "string" && path ? path : null;
}

/** The draft of a bus message (null: not audited). */
export function draftOf(msg: BusMessage<unknown>): AuditDraft | null {
  const data = msg.data;
  if (data === null || typeof data !== "object" || Array.isArray(data)) return null;
  const obj = data as Payload;
  const eventId = typeof obj.event_id === "string" && obj.event_id ? obj.event_id : msg.id;
  if (msg.subject === Subjects.audit) return auditDraftOfRecord(eventId, obj as unknown as AuditRecordEvent);
  return auditDraft(eventId, obj);
}

/**
 * Records the audit event of a consumed message once: a redelivery or a republish of the same
 * event_id inserts nothing. Returns whether a row was inserted.
 */
export const recordAuditEvent =
  (deps: Pick<ActivityDeps, "prisma" | "authorOf" | "entityPathOf">) =>
  async (msg: BusMessage<unknown>): Promise<boolean> => {
    const draft = draftOf(msg);
    if (!draft) return false;
    if (await deps.prisma.auditEvent.findUnique({ where: { sourceEventId: draft.sourceEventId }, select: { id: true } })) return false;
    if (draft.eventName === "member_updated" && draft.entityType === "Group") draft.action.from = await previousAccess(deps, draft);
    if (draft.eventName.startsWith("member_") && draft.entityType === "Group")
      draft.entityPath = (await knownGroupPath(deps, draft.entityId)) ?? draft.entityPath;
    if (!draft.entityPath) draft.entityPath = (await deps.entityPathOf(draft.entityType, draft.entityId)) ?? "";
    const author = await deps.authorOf(draft.actor.user_id);
    const { count } = await deps.prisma.auditEvent.createMany({
      data: [
        {
          sourceEventId: draft.sourceEventId,
          authorId: draft.actor.user_id,
          entityId: draft.entityId,
          entityType: draft.entityType,
          eventName: draft.eventName,
          details: auditDetails(draft, author) as object,
        },
      ],
      skipDuplicates: true,
    });
    return count > 0;
  };
