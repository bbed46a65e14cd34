// Bus event → one queued delivery per matching hook (GitLab's project.execute_hooks, and group
// hooks of the group concerned and all its ancestors: project, subgroup and member events;
// push, tag push, emoji, note, issue, merge request, pipeline, job, deployment and wiki page events
// reach the project's hooks and its groups' hooks; a group wiki's page events its group's hooks and
// its ancestors').
import { isNotFound } from "@quarry/grpc";
import type { BusMessage } from "@quarry/bus";
import type { HookDeps } from "../deps.ts";
import type { WebHook } from "../generated/prisma/client.ts";
import { toEventRecord } from "../hook/record-event.ts";
import { branchFilterPasses } from "./branch-filter.ts";
import { buildDeploymentPayload, buildJobPayload, buildPipelinePayload } from "./ci-payloads.ts";
import { buildEmojiPayload } from "./emoji-payload.ts";
import { EVENT_KINDS, eventKindName, eventUuid, idempotencyKey } from "./events.ts";
import { buildIssuePayload } from "./issue-payload.ts";
import { buildMergeRequestPayload } from "./merge-request-payload.ts";
import { buildNotePayload } from "./note-payload.ts";
import { buildWikiPagePayload } from "./wiki-page-payload.ts";

type Actor = { userId: number; isAdmin: boolean; system?: string };
type Payload = Record<string, unknown>;

/**
 * How hook-service calls identity-service on its own behalf (fan-out reads any project's and
 * group's ancestry, for no user): a system actor, which identity-service answers as an
 * administrator and logs by name.
 */
export const SYSTEM_ACTOR: Actor = { userId: 0, isAdmin: false, system: "hook-service" };

/** A group and all its ancestors, nearest first (one identity call, whatever the depth). */
export async function groupChain(deps: HookDeps, actor: Actor, groupId: number): Promise<number[]> {
  const { groupIds } = await deps.identity.GetGroupAncestors({ actor, groupId });
  return groupIds.map(Number);
}

/** The project's group and all its ancestors, nearest first; [] for personal projects. */
export async function projectGroupChain(deps: HookDeps, projectId: number): Promise<number[]> {
  const { groupIds } = await deps.identity.GetGroupAncestors({ actor: SYSTEM_ACTOR, projectId });
  return groupIds.map(Number);
}

/** Whether a hook takes a new event now: enabled switch, branch filter, not disabled (GitLab drops those). */
export function hookMatches(hook: WebHook, eventName: string, payload: Payload, now: Date): boolean {
  const kind = EVENT_KINDS[eventName];
  if (!kind || !hook[kind.switch]) return false;
  if (hook.permanentlyDisabled || (hook.disabledUntil && hook.disabledUntil > now)) return false;
  if (eventName === "push") return branchFilterPasses(hook.branchFilterStrategy, hook.pushEventsBranchFilter, String(payload.ref ?? ""));
  return true;
}

/** The payload as sent: GitLab's, without our internal event_id and the audit `actor` block (who did it, from which address). */
export function hookPayload(data: Payload): Payload {
  const { event_id: _omit, actor: _actor, ...rest } = data;
  return rest;
}

interface Targets {
  hooks: WebHook[];
  payload: Payload;
}

/** The hooks of a project and of its groups (nearest first) having the switch on. */
async function projectAndGroupHooks(deps: HookDeps, projectId: number, sw: string): Promise<WebHook[]> {
  const hooks = await deps.prisma.webHook.findMany({ where: { projectId, [sw]: true } });
  if ((await deps.prisma.webHook.count({ where: { groupId: { not: null }, [sw]: true } })) > 0) {
    const groups = await projectGroupChain(deps, projectId).catch((err: unknown) => {
      if (isNotFound(err)) return [] as number[]; // the project is gone; anything else: the bus redelivers
      throw err;
    });
    if (groups.length) hooks.push(...(await deps.prisma.webHook.findMany({ where: { groupId: { in: groups }, [sw]: true } })));
  }
  return hooks;
}

/** Push and tag push: the project's hooks and its groups' hooks; the payload as published. */
async function pushTargets(deps: HookDeps, data: Payload, sw: string): Promise<Targets | null> {
  const projectId = Number(data.project_id);
  if (!Number.isSafeInteger(projectId) || projectId <= 0) return null;
  return { hooks: await projectAndGroupHooks(deps, projectId, sw), payload: hookPayload(data) };
}

type PayloadBuilder = (deps: HookDeps, actor: Actor, data: Payload) => Promise<Payload | null>;

/** Project-scoped events of collab-service and ci-service, and GitLab's payload builder of each. */
const COLLAB_PAYLOADS: Record<string, PayloadBuilder> = {
  emoji: buildEmojiPayload,
  note: buildNotePayload,
  issue: buildIssuePayload,
  merge_request: buildMergeRequestPayload,
  pipeline: buildPipelinePayload,
  job: buildJobPayload,
  deployment: buildDeploymentPayload,
  wiki_page: buildWikiPagePayload,
};

/**
 * Emoji, note, issue, merge request, pipeline, job and deployment events (GitLab's project.execute_hooks(data, scope)): the project's hooks
 * and its groups' hooks with the scope's switch; GitLab's payload built from the event with the
 * user and the project (only when some hook takes it).
 */
async function collabTargets(deps: HookDeps, data: Payload, sw: string, build: PayloadBuilder): Promise<Targets | null> {
  const projectId = Number(data.project_id);
  if (!Number.isSafeInteger(projectId) || projectId <= 0) return null;
  const hooks = await projectAndGroupHooks(deps, projectId, sw);
  if (!hooks.length) return { hooks, payload: {} };
  const payload = await build(deps, SYSTEM_ACTOR, data);
  return payload ? { hooks, payload } : null;
}

/** Group hooks of `start` and its ancestors having the switch on (no identity call when none could match). */
async function groupHooks(deps: HookDeps, sw: string, start: () => Promise<number>): Promise<WebHook[]> {
  if ((await deps.prisma.webHook.count({ where: { groupId: { not: null }, [sw]: true } })) === 0) return [];
  let groups: number[];
  try {
    groups = await groupChain(deps, SYSTEM_ACTOR, await start());
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
  return deps.prisma.webHook.findMany({ where: { groupId: { in: groups }, [sw]: true } });
}

/** project_create / project_destroy: hooks of the project's group and ancestors (GitLab's project_hooks). */
async function projectEventTargets(deps: HookDeps, data: Payload, sw: string): Promise<Targets | null> {
  const fullPath = String(data.path_with_namespace ?? "");
  const namespace = fullPath.includes("/") ? fullPath.slice(0, fullPath.lastIndexOf("/")) : "";
  if (!namespace) return null;
  // By path: a destroyed project can no longer be looked up, its group can (user namespaces are NOT_FOUND here).
  const hooks = await groupHooks(deps, sw, async () => Number((await deps.identity.GetGroup({ actor: SYSTEM_ACTOR, idOrPath: namespace })).id));
  return { hooks, payload: hookPayload(data) };
}

/** group_create of a subgroup: hooks of its parent and the parent's ancestors, GitLab's subgroup payload. */
async function subgroupTargets(deps: HookDeps, data: Payload, sw: string): Promise<Targets | null> {
  const parentId = Number(data.parent_id);
  if (!Number.isSafeInteger(parentId) || parentId <= 0) return null;
  const hooks = await groupHooks(deps, sw, async () => parentId);
  if (!hooks.length) return { hooks, payload: {} };
  const parent = await deps.identity.GetGroup({ actor: SYSTEM_ACTOR, idOrPath: String(parentId) });
  return {
    hooks,
    payload: {
      created_at: data.created_at,
      updated_at: data.updated_at,
      event_name: "subgroup_create",
      name: data.name,
      path: data.path,
      full_path: data.full_path,
      group_id: data.group_id,
      parent_group_id: parentId,
      parent_name: parent.name,
      parent_path: parent.path,
      parent_full_path: parent.fullPath,
    },
  };
}

/** Group member events: hooks of the member's group and its ancestors (GitLab's Group#execute_hooks); the payload as published. */
async function memberTargets(deps: HookDeps, data: Payload, sw: string): Promise<Targets | null> {
  const groupId = Number(data.group_id);
  if (!Number.isSafeInteger(groupId) || groupId <= 0) return null;
  return { hooks: await groupHooks(deps, sw, async () => groupId), payload: hookPayload(data) };
}

/** A group wiki's page event: hooks of the wiki's group and its ancestors; GitLab's payload with `group`. */
async function groupWikiTargets(deps: HookDeps, data: Payload, sw: string): Promise<Targets | null> {
  const groupId = Number(data.group_id);
  if (!Number.isSafeInteger(groupId) || groupId <= 0) return null;
  const hooks = await groupHooks(deps, sw, async () => groupId);
  if (!hooks.length) return { hooks, payload: {} };
  const payload = await buildWikiPagePayload(deps, SYSTEM_ACTOR, data);
  return payload ? { hooks, payload } : null;
}

const MEMBER_EVENTS = new Set(["user_add_to_group", "user_update_for_group", "user_remove_from_group"]);

/**
 * Queues the event for every matching hook, once per (event, hook) however often the bus
 * redelivers it, and wakes the worker. Returns how many deliveries were queued.
 */
export async function fanOut(deps: HookDeps, msg: BusMessage<unknown>): Promise<number> {
  const record = toEventRecord(msg);
  const data = msg.data as Payload | null;
  if (!data || typeof data !== "object" || Array.isArray(data)) return 0;
  const kindName = eventKindName(record.eventName, data);
  const kind = EVENT_KINDS[kindName];
  if (!kind) return 0;
  const collab = COLLAB_PAYLOADS[record.eventName];
  const targets =
    record.eventName === "push" || record.eventName === "tag_push"
      ? await pushTargets(deps, data, kind.switch)
      : record.eventName === "wiki_page" && !Number(data.project_id)
        ? await groupWikiTargets(deps, data, kind.switch)
        : collab
          ? await collabTargets(deps, data, kind.switch, collab)
          : record.eventName === "group_create"
            ? await subgroupTargets(deps, data, kind.switch)
            : MEMBER_EVENTS.has(record.eventName)
              ? await memberTargets(deps, data, kind.switch)
              : await projectEventTargets(deps, data, kind.switch);
  if (!targets) return 0;
  const now = new Date();
  const matching = targets.hooks.filter((h) => hookMatches(h, kindName, data, now));
  if (!matching.length) return 0;
  const result = await deps.prisma.webHookDelivery.createMany({
    data: matching.map((h) => ({
      hookId: h.id,
      eventId: record.eventId,
      trigger: kind.trigger,
      payload: targets.payload as object,
      idempotencyKey: idempotencyKey(record.eventId, h.id),
      eventUuid: eventUuid(record.eventId),
    })),
    skipDuplicates: true,
  });
  if (result.count > 0) deps.wake();
  return result.count;
}
