import { paramError } from "@quarry/grpc";
import type { HookEvent } from "@quarry/proto/types/hook/v1/HookEvent";
import type { ListHookEventsRequest__Output } from "@quarry/proto/types/hook/v1/ListHookEventsRequest";
import type { ListHookEventsResponse } from "@quarry/proto/types/hook/v1/ListHookEventsResponse";
import type { HookDeps } from "../deps.ts";
import type { WebHookLog } from "../generated/prisma/client.ts";
import { findOwnedHook } from "./hook-common.ts";
import { paging } from "./list-hooks.ts";

/** Delivery records older than this are not listed (GitLab's WebHookLog.recent). */
export const EVENTS_WINDOW_MS = 7 * 24 * 3600_000;

const CATEGORIES: Record<string, [number, number]> = {
  successful: [200, 299],
  client_failure: [400, 499],
  server_failure: [500, 599],
};

/** response_status values a status filter ("200", "successful", "200,server_failure") selects. */
export function statusValues(filter: string): string[] | null {
  if (filter.trim() === "") return null;
  const out = new Set<string>();
  for (const part of filter.split(",").map((s) => s.trim())) {
    const range = CATEGORIES[part];
    if (range) for (let c = range[0]; c <= range[1]; c++) out.add(String(c));
    else if (/^\d{3}$/.test(part) && Number(part) >= 100 && Number(part) <= 599) out.add(String(Number(part)));
    else throw paramError("status does not have a valid value");
  }
  return [...out];
}

export function toHookEvent(log: WebHookLog): HookEvent {
  return {
    id: Number(log.id),
    url: log.url,
    trigger: log.trigger,
    requestHeadersJson: JSON.stringify(log.requestHeaders),
    requestDataJson: JSON.stringify(log.requestData),
    responseHeadersJson: JSON.stringify(log.responseHeaders),
    responseBody: log.responseBody,
    executionDuration: log.executionDuration,
    responseStatus: log.responseStatus,
    internalErrorMessage: log.internalErrorMessage ?? "",
    createdAt: log.createdAt.toISOString(),
  };
}

/** A hook's delivery records of the last seven days, newest first, optionally by status. */
export const listHookEvents =
  (deps: HookDeps) =>
  async (req: ListHookEventsRequest__Output): Promise<ListHookEventsResponse> => {
    const hook = await findOwnedHook(deps, req.owner, req.hookId);
    const statuses = statusValues(req.status);
    const where = {
      hookId: hook.id,
      createdAt: { gte: new Date(Date.now() - EVENTS_WINDOW_MS) },
      ...(statuses ? { responseStatus: { in: statuses } } : {}),
    };
    const [logs, total] = await Promise.all([
      deps.prisma.webHookLog.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...paging(req.page, req.perPage) }),
      deps.prisma.webHookLog.count({ where }),
    ]);
    return { events: logs.map(toHookEvent), total };
  };
