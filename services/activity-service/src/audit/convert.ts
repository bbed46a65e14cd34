import type { AuditEvent } from "@quarry/proto/types/activity/v1/AuditEvent";
import type { AuditEvent as AuditEventRow } from "../generated/prisma/client.ts";

export function auditEventToProto(r: AuditEventRow): AuditEvent {
  return {
    id: r.id,
    authorId: r.authorId,
    entityId: r.entityId,
    entityType: r.entityType,
    eventName: r.eventName,
    detailsJson: JSON.stringify(r.details),
    createdAt: r.createdAt.toISOString(),
  };
}
