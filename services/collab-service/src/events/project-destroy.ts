import { Subjects, type EventBus, type ProjectDestroyEvent, type Subscription } from "@quarry/bus";
import type { CollabDeps } from "../deps.ts";
import { forgetProjectPipelines } from "../merge-request/pipelines.ts";
import { forgetProjectMergeRequests } from "../merge-request/project-destroy.ts";
import { forgetProjectSnippets } from "../snippet/project-destroy.ts";

/** The durable consumer of identity-service's project deletions (replicas share it). */
export const PROJECTS_DURABLE = "collab-service-projects";

/**
 * A deleted project takes its snippets (with their repositories), its issues (with their notes,
 * award emoji and resource events), labels,
 * milestones and iid counters with it, and its priorities and subscriptions on its groups' labels.
 * Idempotent: a redelivered event finds nothing left.
 */
export async function forgetProject(deps: CollabDeps, projectId: number): Promise<void> {
  await forgetProjectSnippets(deps, projectId);
  await deps.prisma.$transaction(async (tx) => {
    const issueIds = (await tx.issue.findMany({ where: { projectId }, select: { id: true } })).map((i) => i.id);
    const noteIds = (await tx.note.findMany({ where: { projectId }, select: { id: true } })).map((n) => n.id);
    await tx.awardEmoji.deleteMany({
      where: {
        OR: [
          { awardableType: "Issue", awardableId: { in: issueIds } },
          { awardableType: "Note", awardableId: { in: noteIds } },
        ],
      },
    });
    await forgetProjectMergeRequests(tx, projectId);
    await forgetProjectPipelines(tx, projectId);
    await tx.note.deleteMany({ where: { projectId } });
    await tx.resourceLabelEvent.deleteMany({ where: { issueId: { in: issueIds } } });
    await tx.resourceStateEvent.deleteMany({ where: { issueId: { in: issueIds } } });
    await tx.resourceMilestoneEvent.deleteMany({ where: { issueId: { in: issueIds } } });
    await tx.issue.deleteMany({ where: { projectId } });
    await tx.issueIid.deleteMany({ where: { projectId } });
    await tx.labelPriority.deleteMany({ where: { projectId } });
    await tx.labelSubscription.deleteMany({ where: { projectId } });
    await tx.label.deleteMany({ where: { projectId } });
    await tx.milestone.deleteMany({ where: { projectId } });
    await tx.milestoneIid.deleteMany({ where: { parent: `project:${projectId}` } });
  });
}

export async function subscribeToProjectDeletions(deps: CollabDeps, bus: EventBus): Promise<Subscription[]> {
  return [
    await bus.subscribe<ProjectDestroyEvent>(Subjects.projectDestroy, (msg) => forgetProject(deps, Number(msg.data.project_id)), {
      durable: PROJECTS_DURABLE,
    }),
  ];
}
