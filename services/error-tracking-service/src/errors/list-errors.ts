import type { Error as ErrorMessage } from "@quarry/proto/types/errortracking/v1/Error";
import type { ListErrorsResponse } from "@quarry/proto/types/errortracking/v1/ListErrorsResponse";
import type { ListRequest__Output } from "@quarry/proto/types/errortracking/v1/ListRequest";
import { idOf, pageOf } from "../common.ts";
import type { ErrorTrackingDeps } from "../deps.ts";
import type { ErrorTrackingError } from "../generated/prisma/client.ts";

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

/** A project's errors, most recently seen first (ties: newest id first). */
export const listErrors =
  (deps: ErrorTrackingDeps) =>
  async (req: ListRequest__Output): Promise<ListErrorsResponse> => {
    const projectId = idOf(req.projectId);
    const [rows, total] = await Promise.all([
      deps.prisma.errorTrackingError.findMany({ where: { projectId }, orderBy: [{ lastSeenAt: "desc" }, { id: "desc" }], ...pageOf(req) }),
      deps.prisma.errorTrackingError.count({ where: { projectId } }),
    ]);
    return { errors: rows.map(toErrorMessage), total };
  };
