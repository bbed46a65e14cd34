import type { ListErrorEventsRequest__Output } from "@quarry/proto/types/errortracking/v1/ListErrorEventsRequest";
import type { ListErrorEventsResponse } from "@quarry/proto/types/errortracking/v1/ListErrorEventsResponse";
import { idOf, pageOf, recordNotFound } from "../common.ts";
import type { ErrorTrackingDeps } from "../deps.ts";

/** The events of one of the project's errors, newest first; `404 Not found` for another project's error. */
export const listErrorEvents =
  (deps: ErrorTrackingDeps) =>
  async (req: ListErrorEventsRequest__Output): Promise<ListErrorEventsResponse> => {
    const projectId = idOf(req.projectId);
    const errorId = Number(req.errorId);
    if (!Number.isSafeInteger(errorId) || errorId < 1 || errorId > 2_147_483_647) throw recordNotFound();
    const error = await deps.prisma.errorTrackingError.findFirst({ where: { id: errorId, projectId }, select: { id: true } });
    if (!error) throw recordNotFound();
    const [rows, total] = await Promise.all([
      deps.prisma.errorTrackingErrorEvent.findMany({ where: { errorId }, orderBy: [{ occurredAt: "desc" }, { id: "desc" }], ...pageOf(req) }),
      deps.prisma.errorTrackingErrorEvent.count({ where: { errorId } }),
    ]);
    return {
      events: rows.map((r) => ({
        id: r.id,
        errorId: r.errorId,
        eventId: r.eventId,
        level: r.level,
        environment: r.environment,
        description: r.description,
        occurredAt: r.occurredAt.toISOString(),
        payload: JSON.stringify(r.payload),
      })),
      total,
    };
  };
