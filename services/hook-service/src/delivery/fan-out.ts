// Bus event → one queued delivery per matching hook (GitLab's project.execute_hooks +
// group hooks of the project's group and its ancestors).
import type { BusMessage } from "@quarry/bus";
import type { HookDeps } from "../deps.ts";
import type { WebHook } from "../generated/prisma/client.ts";
import { toEventRecord } from "../hook/record-event.ts";
import { branchFilterPasses } from "./branch-filter.ts";
import { EVENT_KINDS, eventUuid, idempotencyKey } from "./events.ts";

/**
 * The project's group and all its ancestors, nearest first; [] for personal projects. Asked as an
 * administrator (identity-service counts that only for a real user id: the event's user, else root).
 */
export async function projectGroupChain(deps: HookDeps, projectId: number, userId = 1): Promise<number[]> {
  const ADMIN = { userId: userId > 0 ? userId : 1, isAdmin: true };
  const project = await deps.identity.GetProject({ actor: ADMIN, idOrPath: String(projectId) });
  const chain: number[] = [];
  if (project.namespace?.kind !== "group") return chain;
  let id = Number(project.namespace.id);
  while (id > 0 && !chain.includes(id)) {
    chain.push(id);
    const group = await deps.identity.GetGroup({ actor: ADMIN, idOrPath: String(id) });
    id = Number(group.parentId);
  }
  return chain;
}

/** Whether a hook takes a new event now: enabled switch, branch filter, not disabled (GitLab drops those). */
export function hookMatches(hook: WebHook, eventName: string, payload: Record<string, unknown>, now: Date): boolean {
  const kind = EVENT_KINDS[eventName];
  if (!kind || !hook[kind.switch]) return false;
  if (hook.permanentlyDisabled || (hook.disabledUntil && hook.disabledUntil > now)) return false;
  if (eventName === "push") return branchFilterPasses(hook.branchFilterStrategy, hook.pushEventsBranchFilter, String(payload.ref ?? ""));
  return true;
}

/** The payload as sent: GitLab's, without our internal event_id. */
export function hookPayload(data: Record<string, unknown>): Record<string, unknown> {
  const { event_id: _omit, ...rest } = data;
  return rest;
}

/**
 * Queues the event for every matching hook, once per (event, hook) however often the bus
 * redelivers it, and wakes the worker. Returns how many deliveries were queued.
 */
export async function fanOut(deps: HookDeps, msg: BusMessage<unknown>): Promise<number> {
  const record = toEventRecord(msg);
  const kind = EVENT_KINDS[record.eventName];
  const data = msg.data as Record<string, unknown> | null;
  if (!kind || !data || typeof data !== "object") return 0;
  const projectId = Number(data.project_id);
  if (!Number.isSafeInteger(projectId) || projectId <= 0) return 0;

  const hooks = await deps.prisma.webHook.findMany({ where: { projectId, [kind.switch]: true } });
  if ((await deps.prisma.webHook.count({ where: { groupId: { not: null }, [kind.switch]: true } })) > 0) {
    const groups = await projectGroupChain(deps, projectId, Number(data.user_id) || 1).catch((err: unknown) => {
      // The project is gone (or identity is unreachable, and the bus will redeliver).
      if ((err as { code?: number }).code === 5) return [] as number[];
      throw err;
    });
    if (groups.length) hooks.push(...(await deps.prisma.webHook.findMany({ where: { groupId: { in: groups }, [kind.switch]: true } })));
  }
  const now = new Date();
  const matching = hooks.filter((h) => hookMatches(h, record.eventName, data, now));
  if (!matching.length) return 0;
  const payload = hookPayload(data);
  const result = await deps.prisma.webHookDelivery.createMany({
    data: matching.map((h) => ({
      hookId: h.id,
      eventId: record.eventId,
      trigger: kind.trigger,
      payload: payload as object,
      idempotencyKey: idempotencyKey(record.eventId, h.id),
      eventUuid: eventUuid(record.eventId),
    })),
    skipDuplicates: true,
  });
  if (result.count > 0) deps.wake();
  return result.count;
}
