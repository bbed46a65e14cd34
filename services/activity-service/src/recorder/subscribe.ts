import { type EventBus, Subjects, type Subscription, type UserContributionsEvent } from "@quarry/bus";
import type { ActivityDeps } from "../deps.ts";
import { CONTRIBUTION_SUBJECTS } from "../events/draft.ts";
import { forgetUserEvents } from "../events/forget-user.ts";
import { recordContributionEvent } from "../events/record.ts";
import { recordAuditEvent } from "./record.ts";

/** Bus subjects activity-service consumes; tests point them at a private prefix. */
export interface ActivitySubjects {
  /** Default `quarry.identity.>` (users, groups, projects, group members). */
  identity: string;
  /** Default `quarry.audit.event` (audit records publishers build themselves). */
  audit: string;
  /** Default pushes, tag pushes, issues, merge requests, notes and wiki pages (contribution events; each its own durable). */
  contributions?: readonly string[];
  /** Default `quarry.accounts.user_contributions` (deleted users: their contribution events go). */
  userContributions?: string;
}

export const DEFAULT_SUBJECTS: ActivitySubjects = {
  identity: "quarry.identity.>",
  audit: Subjects.audit,
  contributions: CONTRIBUTION_SUBJECTS,
  userContributions: Subjects.userContributions,
};

/** Durable consumer names: every activity-service replica shares them, so each event is recorded once. */
export const DURABLES = { identity: "activity-service-identity", audit: "activity-service-audit", users: "activity-service-user-contributions" } as const;

/** The durable consumer of a contribution subject ("quarry.repo.push" → "activity-service-events-push"). */
export function contributionDurable(subject: string): string {
  return `activity-service-events-${subject.slice(subject.lastIndexOf(".") + 1)}`;
}

/**
 * Subscribes durably and records an audit event per audited message and a contribution event per
 * contributing one (project created/destroyed, project members joining and leaving come through the
 * identity and audit consumers); both idempotent on event_id.
 */
export async function subscribeToEvents(bus: EventBus, deps: ActivityDeps, subjects: ActivitySubjects): Promise<Subscription[]> {
  const record = recordAuditEvent(deps);
  const contribute = recordContributionEvent(deps);
  const handler = async (msg: Parameters<typeof record>[0]) => {
    // The contribution first: it needs no other service, and both are idempotent on a redelivery.
    const contributed = await contribute(msg);
    const inserted = await record(msg);
    deps.log.debug({ subject: msg.subject, id: msg.id, inserted, contributed }, "audit event recorded");
  };
  const contributionHandler = async (msg: Parameters<typeof record>[0]) => {
    const inserted = await contribute(msg);
    deps.log.debug({ subject: msg.subject, id: msg.id, inserted }, "contribution event recorded");
  };
  const subs: Subscription[] = [];
  try {
    subs.push(await bus.subscribe(subjects.identity, handler, { durable: DURABLES.identity }));
    subs.push(await bus.subscribe(subjects.audit, handler, { durable: DURABLES.audit }));
    for (const subject of subjects.contributions ?? []) subs.push(await bus.subscribe(subject, contributionHandler, { durable: contributionDurable(subject) }));
    if (subjects.userContributions) {
      subs.push(
        await bus.subscribe<UserContributionsEvent>(subjects.userContributions, async (msg) => void (await forgetUserEvents(deps, msg.data)), {
          durable: DURABLES.users,
        }),
      );
    }
  } catch (err) {
    await Promise.all(subs.map((s) => s.unsubscribe()));
    throw err;
  }
  return subs;
}
