// GitLab's IssueDueSchedulerWorker: once a day, every open issue due tomorrow is announced
// (an issue_due notification event, which hook-service mails to its participants). Ticks run every
// `intervalMs` (default hourly, so a day is never missed); each (issue, due date) is published once
// — claimed in issue_due_notifications in the transaction that enqueues the event — whatever the
// number of ticks and replicas. The clock is injectable; tests call `tick(date)`.
import { Subjects } from "@quarry/bus";
import { isNotFound } from "@quarry/grpc";
import type { CollabDeps } from "../deps.ts";
import { issueHookAttrs } from "../events/hook-attrs.ts";
import { enqueue, publishSoon } from "../events/outbox.ts";

const SYSTEM_ACTOR = { userId: 0, isAdmin: true, system: "collab-service" };
const DAY_MS = 86_400_000;

export interface IssueDueSchedulerOptions {
  /** How often to look, ms (default 1 h). */
  intervalMs?: number;
  /** The clock (default the system's). */
  now?: () => Date;
}

export interface IssueDueScheduler {
  /** One pass as of `now`; returns how many issues were announced now. */
  tick(now?: Date): Promise<number>;
  stop(): Promise<void>;
}

/** Midnight UTC of the day of `d`, plus `days`. */
const utcDay = (d: Date, days = 0) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) + days * DAY_MS);

/** Announces the open issues due the day after `now` (UTC) not yet announced for that date. */
export async function issueDueTick(deps: CollabDeps, now: Date): Promise<number> {
  const tomorrow = utcDay(now, 1);
  // What a past day claimed can no longer match (due dates only move forward from here).
  await deps.prisma.issueDueNotification.deleteMany({ where: { dueDate: { lt: utcDay(now, -7) } } });
  const issues = await deps.prisma.issue.findMany({ where: { state: "opened", dueDate: tomorrow }, orderBy: { id: "asc" } });
  const paths = new Map<number, string | null>();
  let announced = 0;
  for (const issue of issues) {
    if (!paths.has(issue.projectId)) {
      try {
        paths.set(issue.projectId, (await deps.identity.GetProject({ actor: SYSTEM_ACTOR, idOrPath: String(issue.projectId) })).pathWithNamespace);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        paths.set(issue.projectId, null); // the project is being deleted
      }
    }
    const path = paths.get(issue.projectId);
    if (!path) continue;
    const published = await deps.prisma.$transaction(async (tx) => {
      const claimed = await tx.issueDueNotification.createMany({ data: [{ issueId: issue.id, dueDate: tomorrow }], skipDuplicates: true });
      if (!claimed.count) return false;
      await enqueue(tx, Subjects.notification, {
        event_name: "notification",
        object_kind: "notification",
        action: "issue_due",
        user_id: 0,
        project_id: issue.projectId,
        issue: await issueHookAttrs(tx, issue, path),
      });
      return true;
    });
    if (published) announced++;
  }
  if (announced) publishSoon(deps);
  return announced;
}

/** Starts the hourly issue_due pass (a first one at once). */
export function startIssueDueScheduler(deps: CollabDeps, o: IssueDueSchedulerOptions = {}): IssueDueScheduler {
  const now = o.now ?? (() => new Date());
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = running.then(() => issueDueTick(deps, now())).catch((err: unknown) => deps.log.warn({ err }, "issue_due pass failed; the next one retries"));
  };
  const timer = setInterval(run, o.intervalMs ?? 3_600_000);
  timer.unref();
  run();
  return {
    tick: (at?: Date) => issueDueTick(deps, at ?? now()),
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
