// Merge request events create merge request pipelines (GitLab's MergeRequests::CreatePipelineService,
// run when a merge request is opened or reopened and when pushes add commits to it). Only configs
// whose rules or workflow take `merge_request_event` produce one; nothing is created otherwise.
import { Subjects, type EventBus, type MergeRequestEvent, type Subscription } from "@quarry/bus";
import { isUniqueViolation } from "@quarry/database";
import type { CiDeps } from "../deps.ts";
import type { Pipeline } from "../generated/prisma/client.ts";
import { createPipeline, finishStoredPipeline } from "./create.ts";
import { mergeRequestSnapshot } from "./merge-request.ts";

export const MERGE_REQUEST_PIPELINES_DURABLE = "ci-service-merge-request-pipelines";

/** Whether the event calls for a pipeline: opened, reopened, or updated with new commits (`oldrev`). */
export function wantsPipeline(event: MergeRequestEvent): boolean {
  const { action, oldrev } = event.object_attributes;
  return action === "open" || action === "reopen" || (action === "update" && typeof oldrev === "string" && oldrev !== "");
}

/**
 * Creates the merge request pipeline an event calls for, at the merge request's head commit;
 * returns it, or null when none was created (no config, rules left no job, …). A redelivered
 * event finds the pipeline it made and creates nothing. `userId` overrides the event's user (the
 * API's POST …/merge_requests/:iid/pipelines creates as its caller).
 */
export async function pipelineForMergeRequest(deps: CiDeps, event: MergeRequestEvent): Promise<Pipeline | null> {
  const existing = await deps.prisma.pipeline.findUnique({ where: { triggerEventId: event.event_id } });
  if (existing) return finishStoredPipeline(deps, existing);
  const project = await deps.projects.getProject(event.project_id, event.user_id);
  if (!project) return null;
  const mergeRequest = mergeRequestSnapshot(event);
  try {
    const outcome = await createPipeline(deps, {
      project,
      ref: mergeRequest.source_branch,
      tag: false,
      sha: event.ci.head_sha,
      source: "merge_request_event",
      userId: event.user_id,
      // refs/merge-requests/* are never protected refs.
      refProtected: false,
      variables: [],
      saveOnErrors: true,
      triggerEventId: event.event_id,
      mergeRequest,
    });
    if ("skipped" in outcome) {
      deps.log.debug({ project: event.project_id, iid: mergeRequest.iid, reason: outcome.skipped }, "no merge request pipeline");
      return null;
    }
    return outcome.created;
  } catch (err) {
    if (isUniqueViolation(err)) return deps.prisma.pipeline.findUnique({ where: { triggerEventId: event.event_id } });
    throw err;
  }
}

export async function subscribeToMergeRequests(deps: CiDeps, bus: EventBus): Promise<Subscription> {
  return bus.subscribe<MergeRequestEvent>(
    Subjects.mergeRequest,
    async (msg) => {
      if (wantsPipeline(msg.data)) await pipelineForMergeRequest(deps, msg.data);
    },
    { durable: MERGE_REQUEST_PIPELINES_DURABLE, ackWaitMs: 120_000 },
  );
}
