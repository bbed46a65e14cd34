// collab-service's transactional outbox: events are written in the transaction of the change they
// describe (so one is published if and only if its change committed) and the relay (started by the
// service skeleton) publishes them (emoji, note and issue events).
import { enqueueEvent, type EventPayloads } from "@quarry/bus";
import type { CollabDeps, Tx } from "../deps.ts";

/** The payload of a subject without the event_id enqueueEvent assigns. */
export type OutboxPayload<S extends keyof EventPayloads> = Omit<EventPayloads[S], "event_id">;

/**
 * Writes one event into `outbox_events` inside `tx`; returns its event_id. Call
 * `publishSoon(deps)` once the transaction committed.
 */
export function enqueue<S extends keyof EventPayloads>(tx: Tx, subject: S, payload: OutboxPayload<S>): Promise<string> {
  return enqueueEvent(tx, subject, payload as unknown as Record<string, unknown>);
}

/** Wakes the relay after a commit, so events go out without waiting for its poll. */
export function publishSoon(deps: Pick<CollabDeps, "outbox">): void {
  deps.outbox.kick();
}

/** A time as GitLab's hook data shows it: `2023-07-04 20:44:11 UTC`. */
export function hookTime(d: Date | null | undefined): string | null {
  return d ? `${d.toISOString().slice(0, 19).replace("T", " ")} UTC` : null;
}
