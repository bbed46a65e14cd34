import { type EventBus, Subjects, type Subscription } from "@quarry/bus";
import type { ActivityDeps } from "../deps.ts";
import { recordAuditEvent } from "./record.ts";

/** Bus subjects activity-service consumes; tests point them at a private prefix. */
export interface ActivitySubjects {
  /** Default `quarry.identity.>` (users, groups, projects, group members). */
  identity: string;
  /** Default `quarry.audit.event` (audit records publishers build themselves). */
  audit: string;
}

export const DEFAULT_SUBJECTS: ActivitySubjects = { identity: "quarry.identity.>", audit: Subjects.audit };

/** Durable consumer names: every activity-service replica shares them, so each event is recorded once. */
export const DURABLES = { identity: "activity-service-identity", audit: "activity-service-audit" } as const;

/** Subscribes durably and records an audit event per audited message (idempotent on event_id). */
export async function subscribeToEvents(bus: EventBus, deps: ActivityDeps, subjects: ActivitySubjects): Promise<Subscription[]> {
  const record = recordAuditEvent(deps);
  const handler = async (msg: Parameters<typeof record>[0]) => {
    const inserted = await record(msg);
    deps.log.debug({ subject: msg.subject, id: msg.id, inserted }, "audit event recorded");
  };
  const subs: Subscription[] = [];
  try {
    subs.push(await bus.subscribe(subjects.identity, handler, { durable: DURABLES.identity }));
    subs.push(await bus.subscribe(subjects.audit, handler, { durable: DURABLES.audit }));
  } catch (err) {
    await Promise.all(subs.map((s) => s.unsubscribe()));
    throw err;
  }
  return subs;
}
