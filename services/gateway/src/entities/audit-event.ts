import type { AuditEvent__Output as AuditEvent } from "@quarry/proto/types/activity/v1/AuditEvent";

/** GitLab's EE::API::Entities::AuditEvent: id, author_id, entity_id, entity_type, event_name, details, created_at. */
export function auditEvent(m: AuditEvent) {
  let details: unknown;
  try {
    details = JSON.parse(m.detailsJson || "{}");
  } catch {
    details = {};
  }
  return {
    id: Number(m.id),
    author_id: Number(m.authorId),
    entity_id: Number(m.entityId),
    entity_type: m.entityType,
    event_name: m.eventName || null,
    details,
    created_at: m.createdAt,
  };
}
