import type { Error as ErrorMessage } from "@quarry/proto/types/errortracking/v1/Error";
import type { ListErrorsResponse } from "@quarry/proto/types/errortracking/v1/ListErrorsResponse";
import type { ListRequest__Output } from "@quarry/proto/types/errortracking/v1/ListRequest";
import { idOf, pageOf } from "../common.ts";
import type { ErrorTrackingDeps } from "../deps.ts";
import type { ErrorTrackingError } from "../generated/prisma/client.ts";
import { isErrorStatus } from "./error-statuses.ts";

export function toErrorMessage(row: ErrorTrackingError): ErrorMessage {
  return {
    id: row.id,
    projectId: row.projectId,
    fingerprint: row.fingerprint,
    name: row.name,
    description: row.description,
    actor: row.actor,
    platform: row.platform,
    eventCount: row.eventCount,
    firstSeenAt: row.firstSeenAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    status: row.status,
  };
}

/** Orders of GitLab's ErrorTracking::Error.sort_by_attribute; ties: newest id first. */
const ORDERS = {
  last_seen: { lastSeenAt: "desc" },
  first_seen: { firstSeenAt: "desc" },
  frequency: { eventCount: "desc" },
} as const;

/** A project's errors (ErrorTracking::ErrorsFinder): `status` filter, `search`, `sort`; most recently seen first. */
export const listErrors =
  (deps: ErrorTrackingDeps) =>
  async (req: ListRequest__Output): Promise<ListErrorsResponse> => {
    const projectId = idOf(req.projectId);
    const search = req.search
      ? { OR: [{ name: { contains: req.search, mode: "insensitive" as const } }, { description: { contains: req.search, mode: "insensitive" as const } }] }
      : {};
    const where = { projectId, ...(isErrorStatus(req.status) ? { status: req.status } : {}), ...search };
    const order = ORDERS[req.sort as keyof typeof ORDERS] ?? ORDERS.last_seen;
    const [rows, total] = await Promise.all([
      deps.prisma.errorTrackingError.findMany({ where, orderBy: [order, { id: "desc" }], ...pageOf(req) }),
      deps.prisma.errorTrackingError.count({ where }),
    ]);
    return { errors: rows.map(toErrorMessage), total };
  };
