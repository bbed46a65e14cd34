import type { ClientKey__Output } from "@quarry/proto/types/errortracking/v1/ClientKey";
import type { Error__Output } from "@quarry/proto/types/errortracking/v1/Error";
import type { ErrorEvent__Output } from "@quarry/proto/types/errortracking/v1/ErrorEvent";
import type { Settings__Output } from "@quarry/proto/types/errortracking/v1/Settings";

/** GitLab's Entities::ErrorTracking::ProjectSetting (field names as document 2 gives them). */
export function errorTrackingSettingEntity(s: Settings__Output) {
  return {
    active: s.active,
    project_name: s.projectName ?? null,
    tracker_external_url: s.trackerExternalUrl ?? null,
    api_url: s.apiUrl ?? null,
    integrated: s.integrated,
  };
}

/**
 * The DSN Sentry SDKs are configured with (GitLab's ErrorTracking::ClientKey#sentry_dsn): the
 * instance URL with the public key as user name, then the collector path and the project id.
 */
export function trackerDsn(externalUrl: string, publicKey: string, projectId: number): string {
  const url = new URL(externalUrl);
  url.username = publicKey;
  url.password = "";
  url.search = "";
  url.hash = "";
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/api/v4/error_tracking/collector/${projectId}`;
  return url.toString();
}

/** GitLab's Entities::ErrorTracking::ClientKey. */
export function errorTrackingClientKeyEntity(k: ClientKey__Output, externalUrl: string) {
  return { id: Number(k.id), active: k.active, public_key: k.publicKey, tracker_dsn: trackerDsn(externalUrl, k.publicKey, Number(k.projectId)) };
}

/** Quarry's own: an error of the integrated collector (events grouped by fingerprint). */
export function errorTrackingErrorEntity(e: Error__Output) {
  return {
    id: Number(e.id),
    project_id: Number(e.projectId),
    fingerprint: e.fingerprint,
    name: e.name,
    description: e.description,
    actor: e.actor,
    platform: e.platform,
    status: e.status,
    event_count: Number(e.eventCount),
    first_seen_at: e.firstSeenAt,
    last_seen_at: e.lastSeenAt,
  };
}

/** Quarry's own: one event of an error, with the payload the SDK sent. */
export function errorTrackingEventEntity(e: ErrorEvent__Output) {
  return {
    id: Number(e.id),
    error_id: Number(e.errorId),
    event_id: e.eventId,
    level: e.level,
    environment: e.environment || null,
    description: e.description,
    occurred_at: e.occurredAt,
    payload: JSON.parse(e.payload) as unknown,
  };
}
