import { isPositiveInt32, RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import { notFound, ServiceError, status } from "@quarry/grpc";
import type { ClientKey as ClientKeyMessage } from "@quarry/proto/types/errortracking/v1/ClientKey";
import type { Settings as SettingsMessage } from "@quarry/proto/types/errortracking/v1/Settings";
import type { ErrorTrackingClientKey, ErrorTrackingSetting } from "./generated/prisma/client.ts";

/** GitLab's `not_found!('Error Tracking Setting')`. */
export const settingNotFound = () => notFound("Error Tracking Setting");
/** ActiveRecord::RecordNotFound through Grape: `404 Not found`. */
export const recordNotFound = () => new ServiceError(status.NOT_FOUND, { message: RECORD_NOT_FOUND_MESSAGE });

/** A positive 32-bit id, or INVALID_ARGUMENT (the gateway never sends another). */
export function idOf(raw: unknown, what = "project_id"): number {
  const id = Number(raw);
  if (!isPositiveInt32(id)) throw new ServiceError(status.INVALID_ARGUMENT, { message: `${what} is invalid` });
  return id;
}

/** A page request with GitLab's defaults (page 1, 20 a page, at most 100). */
export function pageOf(req: { page?: number; perPage?: number }) {
  const perPage = Math.min(Math.max(req.perPage || 20, 1), 100);
  const page = Math.max(req.page || 1, 1);
  return { skip: (page - 1) * perPage, take: perPage };
}

export function toSettingsMessage(row: ErrorTrackingSetting): SettingsMessage {
  return {
    projectId: row.projectId,
    active: row.enabled,
    integrated: row.integrated,
    projectName: row.projectName ?? undefined,
    trackerExternalUrl: row.trackerExternalUrl ?? undefined,
    apiUrl: row.apiUrl ?? undefined,
  };
}

export function toClientKeyMessage(row: ErrorTrackingClientKey): ClientKeyMessage {
  return { id: row.id, projectId: row.projectId, active: row.active, publicKey: row.publicKey };
}
