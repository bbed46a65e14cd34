import { badRequest, notFound } from "@quarry/grpc";
import type { CollectEventsRequest__Output } from "@quarry/proto/types/errortracking/v1/CollectEventsRequest";
import type { CollectEventsResponse } from "@quarry/proto/types/errortracking/v1/CollectEventsResponse";
import { idOf } from "../common.ts";
import type { ErrorTrackingDeps } from "../deps.ts";
import { summarizeEvent } from "./sentry-event.ts";

/** PostgreSQL text and jsonb cannot hold NUL characters: they are dropped from every string and key. */
function withoutNul(value: unknown): unknown {
  if (typeof value === "string") return value.includes("\0") ? value.replaceAll("\0", "") : value;
  if (Array.isArray(value)) return value.map(withoutNul);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutNul(k) as string, withoutNul(v)]));
  return value;
}

/** A Sentry event must be a JSON object naming an exception or a message (GitLab's PayloadValidator, loosely). */
function parseEvent(text: string): Record<string, unknown> {
  let event: unknown;
  try {
    event = withoutNul(JSON.parse(text));
  } catch {
    throw badRequest("400 Bad request - Failed to parse sentry request");
  }
  if (!event || typeof event !== "object" || Array.isArray(event)) throw badRequest("400 Bad request - Unsupported sentry payload");
  const e = event as Record<string, unknown>;
  if (e.exception == null && e.message == null && e.logentry == null) throw badRequest("400 Bad request - Unsupported sentry payload");
  return e;
}

/**
 * GitLab's collector checks (`not_found!` unless integrated error tracking is enabled and the public key is
 * an active key of the project), then ErrorTracking::CollectErrorService: each event joins the error of
 * its fingerprint (created on first sight), whose count and first/last seen times follow.
 */
export const collectEvents =
  (deps: ErrorTrackingDeps) =>
  async (req: CollectEventsRequest__Output): Promise<CollectEventsResponse> => {
    const projectId = idOf(req.projectId);
    const [setting, key] = await Promise.all([
      deps.prisma.errorTrackingSetting.findUnique({ where: { projectId } }),
      req.publicKey ? deps.prisma.errorTrackingClientKey.findUnique({ where: { publicKey: req.publicKey } }) : null,
    ]);
    if (!setting?.enabled || !setting.integrated || !key?.active || key.projectId !== projectId) throw notFound();
    const events = req.events.map(parseEvent);
    const receivedAt = new Date();
    const errorIds: number[] = [];
    await deps.prisma.$transaction(async (tx) => {
      for (const event of events) {
        const s = summarizeEvent(event, receivedAt);
        // One row per fingerprint even under concurrent reports: the upsert's unique key decides.
        const error = await tx.errorTrackingError.upsert({
          where: { projectId_fingerprint: { projectId, fingerprint: s.fingerprint } },
          create: {
            projectId,
            fingerprint: s.fingerprint,
            name: s.name,
            description: s.description,
            actor: s.actor,
            platform: s.platform,
            eventCount: 1,
            firstSeenAt: s.occurredAt,
            lastSeenAt: s.occurredAt,
          },
          update: { eventCount: { increment: 1 } },
        });
        if (error.eventCount > 1) {
          // first/last seen widen to the event's time (SDKs may deliver late); a resolved error
          // happening again is a regression and unresolved again, as in Sentry (ignored stays ignored).
          await tx.$executeRaw`UPDATE error_tracking_errors SET first_seen_at = LEAST(first_seen_at, ${s.occurredAt}), last_seen_at = GREATEST(last_seen_at, ${s.occurredAt}), status = CASE WHEN status = 'resolved' THEN 'unresolved' ELSE status END WHERE id = ${error.id}`;
        }
        await tx.errorTrackingErrorEvent.create({
          data: {
            errorId: error.id,
            eventId: s.eventId,
            level: s.level,
            environment: s.environment,
            description: s.description,
            occurredAt: s.occurredAt,
            payload: event as object,
          },
        });
        errorIds.push(error.id);
      }
    });
    return { errorIds };
  };
