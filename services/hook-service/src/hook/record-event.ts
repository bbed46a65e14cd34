import type { BusMessage } from "@quarry/bus";
import type { HookDeps } from "../deps.ts";

/** What gets stored for one bus message. */
export interface EventRecord {
  eventId: string;
  subject: string;
  eventName: string;
  payloadJson: string;
}

function nonEmptyString(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

function withoutActor(data: unknown): unknown {
  if (data === null || typeof data !== "object" || Array.isArray(data) || !("actor" in data)) return data;
  const { actor: _actor, ...rest } = data as Record<string, unknown>;
  return rest;
}

/**
 * Maps a bus message to its record: `event_id` from the payload (the publisher's id, stable
 * across republishes), else the bus message id; `event_name` from the payload, else the
 * subject's last token.
 */
export function toEventRecord(msg: BusMessage<unknown>): EventRecord {
  const data = msg.data;
  const obj = data !== null && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  return {
    eventId: nonEmptyString(obj.event_id) ?? msg.id,
    subject: msg.subject,
    eventName: nonEmptyString(obj.event_name) ?? msg.subject.slice(msg.subject.lastIndexOf(".") + 1),
    // The audit `actor` block (user and address) is activity-service's, not part of what hooks see.
    payloadJson: JSON.stringify(withoutActor(data)) ?? "null",
  };
}

/**
 * Records a consumed event once: a redelivery or a republish of the same event_id inserts nothing.
 * Returns whether a row was inserted.
 */
export const recordEvent =
  (deps: Pick<HookDeps, "prisma">) =>
  async (msg: BusMessage<unknown>): Promise<boolean> => {
    const r = toEventRecord(msg);
    const inserted = await deps.prisma.$executeRaw`
      INSERT INTO recorded_events (event_id, subject, event_name, payload)
      VALUES (${r.eventId}, ${r.subject}, ${r.eventName}, ${r.payloadJson}::jsonb)
      ON CONFLICT (event_id) DO NOTHING`;
    return inserted > 0;
  };
