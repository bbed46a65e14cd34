// Test fixtures: pipeline events as ci-service publishes them on quarry.ci.pipeline.
import type { PipelineEvent } from "@quarry/bus";

/** A PipelineEvent as ci-service publishes it. */
export function pipelineEvent(o: {
  id: number;
  projectId: number;
  sha: string;
  ref: string;
  status: string;
  updatedAt?: string;
  source?: string;
}): PipelineEvent {
  return {
    event_id: `p${o.id}-${o.status}-${Math.random()}`,
    object_kind: "pipeline",
    user_id: 1,
    project_id: o.projectId,
    object_attributes: {
      id: o.id,
      iid: o.id,
      ref: o.ref,
      sha: o.sha,
      source: o.source ?? "push",
      status: o.status,
      created_at: "2026-11-26 05:00:00 UTC",
      ...(o.updatedAt ? { updated_at: o.updatedAt } : {}),
    },
    merge_request: null,
    commit: null,
    builds: [],
  };
}
