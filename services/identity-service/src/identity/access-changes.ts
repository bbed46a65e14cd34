// Access-change events (`quarry.access.changed`): every write that can change an Authorize answer
// (a project, a group, a membership, a user's state or admin flag), or a user's row as GetUser shows
// it, enqueues one (in its transaction where it has one), so that gateways evict their authorization
// and user caches at once. Not a webhook: outside quarry.identity.>.
import { type AccessChangedEvent, Subjects, enqueueEvent } from "@quarry/bus";
import type { PrismaClient, Tx } from "../deps.ts";

export type AccessChange = Omit<AccessChangedEvent, "event_id" | "event_name">;

/** Writes an access-change event to the outbox (inside the change's transaction; kick the relay after). */
export function enqueueAccessChange(tx: Tx | PrismaClient, change: AccessChange): Promise<string> {
  return enqueueEvent(tx as Tx, Subjects.accessChanged, { event_name: "access_changed", ...change });
}
