import { Subjects, type EventBus, type GroupDestroyEvent, type Subscription } from "@quarry/bus";
import type { CollabDeps } from "../deps.ts";

/** The durable consumer of identity-service's group deletions (replicas share it). */
export const GROUPS_DURABLE = "collab-service-groups";

/**
 * A deleted group takes its labels (with their priorities and subscriptions, by cascade),
 * milestones and iid counter with it. identity-service sends one event per group, subgroups
 * included. Idempotent: a redelivered event finds nothing left.
 */
export async function forgetGroup(deps: CollabDeps, groupId: number): Promise<void> {
  await deps.prisma.$transaction([
    deps.prisma.label.deleteMany({ where: { groupId } }),
    deps.prisma.milestone.deleteMany({ where: { groupId } }),
    deps.prisma.milestoneIid.deleteMany({ where: { parent: `group:${groupId}` } }),
  ]);
}

export async function subscribeToGroupDeletions(deps: CollabDeps, bus: EventBus): Promise<Subscription[]> {
  return [
    await bus.subscribe<GroupDestroyEvent>(Subjects.groupDestroy, (msg) => forgetGroup(deps, Number(msg.data.group_id)), {
      durable: GROUPS_DURABLE,
    }),
  ];
}
