// Push and tag-push events create pipelines (GitLab's Ci::CreatePipelineService run by
// PostReceive). Deleting a ref creates nothing.
import { Subjects, type EventBus, type PushEvent, type Subscription } from "@quarry/bus";
import { isUniqueViolation } from "@quarry/database";
import { branchOfRef, isTagRef, tagOfRef } from "@quarry/gitlab";
import type { CiDeps } from "../deps.ts";
import { createPipeline, finishStoredPipeline } from "./create.ts";

const ZERO_SHA = /^0+$/;
export const PIPELINES_DURABLE = "ci-service-pipelines";

/** Handles one push event; exported for tests that feed events directly. */
export async function pipelineForPush(deps: CiDeps, event: PushEvent): Promise<void> {
  if (ZERO_SHA.test(event.after)) return;
  // A redelivered event already made its pipeline (finished here if its maker died half-way).
  const existing = await deps.prisma.pipeline.findUnique({ where: { triggerEventId: event.event_id } });
  if (existing) {
    await finishStoredPipeline(deps, existing);
    return;
  }
  const project = await deps.projects.getProject(event.project_id, event.user_id);
  if (!project) return;
  const tag = isTagRef(event.ref);
  const ref = branchOfRef(event.ref) ?? tagOfRef(event.ref) ?? event.ref;
  try {
    const outcome = await createPipeline(deps, {
      project,
      ref,
      tag,
      sha: event.checkout_sha ?? event.after,
      beforeSha: event.before,
      source: "push",
      userId: event.user_id,
      refProtected: event.ref_protected,
      variables: [],
      saveOnErrors: true,
      triggerEventId: event.event_id,
    });
    if ("skipped" in outcome) deps.log.debug({ ref: event.ref, project: event.project_id, reason: outcome.skipped }, "no pipeline for push");
  } catch (err) {
    if (isUniqueViolation(err)) return; // a concurrent delivery of the same event won
    throw err;
  }
}

export async function subscribeToPushes(deps: CiDeps, bus: EventBus): Promise<Subscription[]> {
  const handler = async (msg: { data: PushEvent }) => pipelineForPush(deps, msg.data);
  return [
    await bus.subscribe<PushEvent>(Subjects.push, handler, { durable: PIPELINES_DURABLE, ackWaitMs: 120_000 }),
    await bus.subscribe<PushEvent>(Subjects.tagPush, handler, { durable: `${PIPELINES_DURABLE}-tags`, ackWaitMs: 120_000 }),
  ];
}
