import type { BusMessage, EventBus, Subscription } from "@quarry/bus";
import { isPositiveInt32 } from "@quarry/gitlab";
import type { HookDeps } from "../deps.ts";
import { fanOut } from "../delivery/fan-out.ts";
import { recordEvent } from "./record-event.ts";

/** A destroyed project's or group's hooks go with it (with their records and queued deliveries), as in GitLab. */
export async function dropHooksOfDestroyedOwner(deps: Pick<HookDeps, "prisma">, msg: BusMessage<unknown>): Promise<number> {
  const data = msg.data as { event_name?: unknown; project_id?: unknown; group_id?: unknown } | null;
  // identity sends one group_destroy per group gone, subgroups included.
  const project = data?.event_name === "project_destroy";
  if (!project && data?.event_name !== "group_destroy") return 0;
  const id = Number(project ? data.project_id : data.group_id);
  if (!isPositiveInt32(id)) return 0;
  return (await deps.prisma.webHook.deleteMany({ where: project ? { projectId: id } : { groupId: id } })).count;
}

/** Bus subjects hook-service consumes; tests point them at a private prefix. */
export interface HookSubjects {
  /** Default `quarry.identity.>` (user/project/group create/destroy, group member events, token_revoke). */
  identity: string;
  /** Default `quarry.repo.>` (push, tag_push). */
  repo: string;
  /** Default `quarry.collab.>` (emoji, note, issue, merge_request). */
  collab: string;
  /** Default `quarry.ci.>` (pipeline, job, deployment). */
  ci: string;
  /** Default `quarry.settings.application` (the instance settings' changes). */
  settings?: string;
}

export const DEFAULT_SUBJECTS: HookSubjects = { identity: "quarry.identity.>", repo: "quarry.repo.>", collab: "quarry.collab.>", ci: "quarry.ci.>" };

/** Durable consumer names: every hook-service replica shares them, so each event is handled once. */
export const DURABLES = { identity: "hook-service-identity", repo: "hook-service-repo", collab: "hook-service-collab", ci: "hook-service-ci" } as const;

/**
 * Subscribes durably to the domain events; records each one and queues a delivery to every
 * matching webhook (both idempotent, so redeliveries change nothing). Returns the subscriptions.
 */
export async function subscribeToEvents(bus: EventBus, deps: HookDeps, subjects: HookSubjects): Promise<Subscription[]> {
  const record = recordEvent(deps);
  const handler = async (msg: Parameters<typeof record>[0]) => {
    const inserted = await record(msg);
    const queued = await fanOut(deps, msg);
    await dropHooksOfDestroyedOwner(deps, msg);
    deps.log.debug({ subject: msg.subject, id: msg.id, inserted, queued }, "event recorded");
  };
  const subs: Subscription[] = [];
  try {
    subs.push(await bus.subscribe(subjects.identity, handler, { durable: DURABLES.identity }));
    subs.push(await bus.subscribe(subjects.repo, handler, { durable: DURABLES.repo }));
    subs.push(await bus.subscribe(subjects.collab, handler, { durable: DURABLES.collab }));
    subs.push(await bus.subscribe(subjects.ci, handler, { durable: DURABLES.ci }));
  } catch (err) {
    await Promise.all(subs.map((s) => s.unsubscribe()));
    throw err;
  }
  return subs;
}
