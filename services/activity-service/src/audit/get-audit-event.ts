import { ServiceError, status } from "@quarry/grpc";
import type { AuditEvent } from "@quarry/proto/types/activity/v1/AuditEvent";
import type { GetAuditEventRequest__Output } from "@quarry/proto/types/activity/v1/GetAuditEventRequest";
import type { ActivityDeps } from "../deps.ts";
import { auditEventToProto } from "./convert.ts";

/** One audit event; NOT_FOUND unless it exists and matches the entity and author asked for. */
export const getAuditEvent =
  (deps: Pick<ActivityDeps, "prisma">) =>
  async (req: GetAuditEventRequest__Output): Promise<AuditEvent> => {
    const id = Number(req.id);
    const row =
      id > 0 && id <= 2_147_483_647
        ? await deps.prisma.auditEvent.findFirst({
            where: {
              id,
              ...(req.entityType ? { entityType: req.entityType } : {}),
              ...(Number(req.entityId) > 0 ? { entityId: Number(req.entityId) } : {}),
              ...(Number(req.authorId) > 0 ? { authorId: Number(req.authorId) } : {}),
            },
          })
        : null;
    // GitLab's find_by! raises RecordNotFound: `404 Not found`.
    if (!row) throw new ServiceError(status.NOT_FOUND, { message: "404 Not found" });
    return auditEventToProto(row);
  };
