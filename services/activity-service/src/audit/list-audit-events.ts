import { paramError } from "@quarry/grpc";
import type { ListAuditEventsRequest__Output } from "@quarry/proto/types/activity/v1/ListAuditEventsRequest";
import type { ListAuditEventsResponse } from "@quarry/proto/types/activity/v1/ListAuditEventsResponse";
import type { ActivityDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { auditEventToProto } from "./convert.ts";

function time(v: string, name: string): Date | undefined {
  if (!v) return undefined;
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) throw paramError(`${name} is invalid`);
  return d;
}

/** Audit events matching the filters, newest first; offset pages (counted) or keyset pages (id_before). */
export const listAuditEvents =
  (deps: Pick<ActivityDeps, "prisma">) =>
  async (req: ListAuditEventsRequest__Output): Promise<ListAuditEventsResponse> => {
    const after = time(req.createdAfter, "created_after");
    const before = time(req.createdBefore, "created_before");
    const where: Prisma.AuditEventWhereInput = {
      ...(req.entityType ? { entityType: req.entityType } : {}),
      ...(req.entityType && Number(req.entityId) > 0 ? { entityId: Number(req.entityId) } : {}),
      ...(Number(req.authorId) > 0 ? { authorId: Number(req.authorId) } : {}),
      ...(after || before ? { createdAt: { ...(after ? { gte: after } : {}), ...(before ? { lte: before } : {}) } } : {}),
    };
    const perPage = Math.min(100, Math.max(1, req.page?.perPage || 20));
    const page = Math.max(1, req.page?.page || 1);
    if (req.keyset) {
      const idBefore = Number(req.idBefore);
      const rows = await deps.prisma.auditEvent.findMany({
        where: { ...where, ...(idBefore > 0 ? { id: { lt: idBefore } } : {}) },
        orderBy: { id: "desc" },
        take: perPage + 1,
      });
      return {
        events: rows.slice(0, perPage).map(auditEventToProto),
        pageInfo: { total: rows.length, page: 1, perPage },
        hasMore: rows.length > perPage,
      };
    }
    const [total, rows] = await Promise.all([
      deps.prisma.auditEvent.count({ where }),
      deps.prisma.auditEvent.findMany({ where, orderBy: { id: "desc" }, skip: (page - 1) * perPage, take: perPage }),
    ]);
    return { events: rows.map(auditEventToProto), pageInfo: { total, page, perPage }, hasMore: page * perPage < total };
  };
