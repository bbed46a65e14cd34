import { badRequest } from "@quarry/grpc";
import type { ListRecordedEventsRequest__Output } from "@quarry/proto/types/hook/v1/ListRecordedEventsRequest";
import type { ListRecordedEventsResponse } from "@quarry/proto/types/hook/v1/ListRecordedEventsResponse";
import type { HookDeps } from "../deps.ts";

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

/** Recorded events, newest first; optionally only one event_name. limit 0 = 100, capped at 1000. */
export const listRecordedEvents =
  (deps: HookDeps) =>
  async (req: ListRecordedEventsRequest__Output): Promise<ListRecordedEventsResponse> => {
    if (req.limit < 0) throw badRequest("limit must not be negative");
    const take = Math.min(req.limit || DEFAULT_LIMIT, MAX_LIMIT);
    const rows = await deps.prisma.recordedEvent.findMany({
      where: req.eventName ? { eventName: req.eventName } : {},
      orderBy: { id: "desc" },
      take,
    });
    return {
      events: rows.map((r) => ({
        id: Number(r.id),
        eventId: r.eventId,
        subject: r.subject,
        eventName: r.eventName,
        payloadJson: JSON.stringify(r.payload),
        receivedAt: r.receivedAt.toISOString(),
      })),
    };
  };
