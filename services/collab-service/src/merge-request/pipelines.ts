// collab-service's read model of ci-service's pipelines (ci_pipelines), fed by quarry.ci.pipeline:
// merge requests' head pipelines (GitLab's MergeRequest#head_pipeline), the "pipelines must
// succeed" check and auto-merge read it; collab-service never reads ci-service's tables.
import { Subjects, type BusMessage, type EventBus, type PipelineEvent, type Subscription } from "@quarry/bus";
import type { CollabDeps, Tx } from "../deps.ts";
import type { CiPipeline } from "../generated/prisma/client.ts";

/** The durable consumer of ci-service's pipeline events (replicas share it). */
export const PIPELINES_DURABLE = "collab-service-pipelines";

/** Statuses of a pipeline that has not finished yet (GitLab's Ci::HasStatus ALIVE_STATUSES and scheduled). */
export const IN_PROGRESS_STATUSES: readonly string[] = [
  "created",
  "waiting_for_resource",
  "preparing",
  "waiting_for_callback",
  "pending",
  "running",
  "scheduled",
];

export const isInProgress = (p: Pick<CiPipeline, "status"> | null | undefined): boolean => !!p && IN_PROGRESS_STATUSES.includes(p.status);

/** A merge request's head ref (merge request pipelines run on it). */
export const mergeRequestHeadRef = (iid: number): string => `refs/merge-requests/${iid}/head`;

/** A hook time ("2026-11-26 05:00:00 UTC") or an ISO 8601 string as a Date; null when neither. */
export function parseEventTime(value: unknown): Date | null {
  if (typeof value !== "string" || !value) return null;
  const iso = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/.test(value) ? `${value.slice(0, 10)}T${value.slice(11, 19)}Z` : value;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * Records one pipeline event: inserts the pipeline, or updates it unless the stored row is newer
 * (events may arrive out of order or be redelivered). The event's time is its `updated_at` when
 * ci-service sends one, else when it was published. Returns the row when this event was applied.
 */
export async function recordPipeline(db: CollabDeps["prisma"] | Tx, event: PipelineEvent, publishedAt: Date): Promise<CiPipeline | null> {
  const a = event.object_attributes;
  const updatedAt = parseEventTime(a.updated_at) ?? publishedAt;
  const row = {
    projectId: Number(event.project_id),
    sha: String(a.sha),
    ref: String(a.ref),
    source: String(a.source ?? ""),
    status: String(a.status),
    updatedAt,
  };
  const id = Number(a.id);
  // One statement: a concurrent delivery of an older event cannot overwrite a newer one.
  const applied = await db.$queryRaw<CiPipeline[]>`
    INSERT INTO ci_pipelines (id, project_id, sha, ref, source, status, created_at, updated_at)
    VALUES (${id}, ${row.projectId}, ${row.sha}, ${row.ref}, ${row.source}, ${row.status}, ${parseEventTime(a.created_at) ?? updatedAt}, ${updatedAt})
    ON CONFLICT (id) DO UPDATE SET sha = EXCLUDED.sha, ref = EXCLUDED.ref, source = EXCLUDED.source,
      status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
    WHERE ci_pipelines.updated_at <= EXCLUDED.updated_at
    RETURNING id`;
  return applied.length ? { id, createdAt: updatedAt, ...row } : null;
}

/** What picks a merge request's head pipeline. */
export type HeadPipelineKey = { sourceProjectId: number; iid: number; sourceBranch: string; headSha: string | null };

/** The refs a head pipeline runs on: the source branch, or the merge request's head ref. */
export const headPipelineRefs = (mr: Pick<HeadPipelineKey, "iid" | "sourceBranch">): string[] => [mr.sourceBranch, mergeRequestHeadRef(mr.iid)];

/** Whether `p` is a candidate head pipeline of `mr` (headPipelineOf's condition, for rows already read). */
export const isHeadPipelineOf = (p: Pick<CiPipeline, "projectId" | "sha" | "ref">, mr: HeadPipelineKey): boolean =>
  mr.headSha !== null && p.projectId === mr.sourceProjectId && p.sha === mr.headSha && headPipelineRefs(mr).includes(p.ref);

/**
 * GitLab's MergeRequest#head_pipeline: the newest pipeline of the source project for the source
 * head, run on the source branch or on the merge request's head ref; null when none.
 */
export async function headPipelineOf(db: CollabDeps["prisma"] | Tx, mr: HeadPipelineKey): Promise<CiPipeline | null> {
  if (!mr.headSha) return null;
  return db.ciPipeline.findFirst({
    where: { projectId: mr.sourceProjectId, sha: mr.headSha, ref: { in: headPipelineRefs(mr) } },
    orderBy: { id: "desc" },
  });
}

/** A deleted project's pipelines, in the project deletion's transaction. */
export async function forgetProjectPipelines(tx: Tx, projectId: number): Promise<void> {
  await tx.ciPipeline.deleteMany({ where: { projectId } });
}

/** Called after a pipeline event was recorded (auto-merge reacts to it). */
export type PipelineListener = (pipeline: CiPipeline) => Promise<void>;

export async function subscribeToPipelines(deps: CollabDeps, bus: EventBus, onRecorded: PipelineListener): Promise<Subscription[]> {
  return [
    await bus.subscribe<PipelineEvent>(
      Subjects.pipeline,
      async (msg: BusMessage<PipelineEvent>) => {
        const pipeline = await recordPipeline(deps.prisma, msg.data, new Date(msg.publishedAt));
        if (pipeline) await onRecorded(pipeline);
      },
      { durable: PIPELINES_DURABLE },
    ),
  ];
}
