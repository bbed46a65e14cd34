import { Subjects, type EventBus, type ProjectDestroyEvent, type Subscription } from "@quarry/bus";
import type { CollabDeps } from "../deps.ts";

/** The durable consumer of identity-service's project deletions (replicas share it). */
export const PROJECTS_DURABLE = "collab-service-projects";

/**
 * A deleted project takes its labels, milestones and iid counter with it, and its priorities and
 * subscriptions on its groups' labels. Idempotent: a redelivered event finds nothing left.
 */
export async function forgetProject(deps: CollabDeps, projectId: number): Promise<void> {
  await deps.prisma.$transaction([
    deps.prisma.labelPriority.deleteMany({ where: { projectId } }),
    deps.prisma.labelSubscription.deleteMany({ where: { projectId } }),
    deps.prisma.label.deleteMany({ where: { projectId } }),
    deps.prisma.milestone.deleteMany({ where: { projectId } }),
    deps.prisma.milestoneIid.deleteMany({ where: { parent: `project:${projectId}` } }),
  ]);
}

export async function subscribeToProjectDeletions(deps: CollabDeps, bus: EventBus): Promise<Subscription[]> {
  return [
    await bus.subscribe<ProjectDestroyEvent>(Subjects.projectDestroy, (msg) => forgetProject(deps, Number(msg.data.project_id)), {
      durable: PROJECTS_DURABLE,
    }),
  ];
}
