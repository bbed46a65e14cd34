// Test deliveries of merge request, pipeline, job and deployment hooks (GitLab's
// TestHooks::ProjectService#merge_requests_events_data, pipeline_events_data, job_events_data,
// deployment_events_data): the project's newest such event, which hook-service recorded when it
// consumed it, built into GitLab's payload as a real delivery would be.
import { status } from "@grpc/grpc-js";
import { ServiceError } from "@quarry/grpc";
import { buildDeploymentPayload, buildJobPayload, buildPipelinePayload } from "../delivery/ci-payloads.ts";
import { buildMergeRequestPayload } from "../delivery/merge-request-payload.ts";
import type { HookDeps } from "../deps.ts";
import type { WebHook } from "../generated/prisma/client.ts";
import { sampleProject, type SampleRequester } from "./test-sample.ts";

type Payload = Record<string, unknown>;
type Builder = (deps: Pick<HookDeps, "identity" | "settings">, actor: SampleRequester, data: Payload) => Promise<Payload | null>;

/** Test trigger → the recorded event it replays, GitLab's message when the project has none, the builder. */
export const RECORDED_SAMPLES: Record<string, { eventName: string; missing: string; build: Builder }> = {
  merge_requests_events: { eventName: "merge_request", missing: "Ensure the project has merge requests.", build: buildMergeRequestPayload },
  pipeline_events: { eventName: "pipeline", missing: "Ensure the project has CI pipelines.", build: buildPipelinePayload },
  job_events: { eventName: "job", missing: "Ensure the project has CI jobs.", build: buildJobPayload },
  deployment_events: { eventName: "deployment", missing: "Ensure the project has deployments.", build: buildDeploymentPayload },
};

/** The sample of one of RECORDED_SAMPLES' triggers; 422 with GitLab's message when there is nothing to show. */
export async function buildRecordedSample(
  deps: Pick<HookDeps, "identity" | "settings" | "prisma">,
  hook: WebHook,
  trigger: string,
  requester: SampleRequester,
): Promise<Payload> {
  const kind = RECORDED_SAMPLES[trigger]!;
  const unprocessable = () => new ServiceError(status.FAILED_PRECONDITION, { message: kind.missing }, 422);
  const project = await sampleProject(deps, hook, requester).catch(() => null);
  if (!project) throw unprocessable();
  const [recorded] = await deps.prisma.$queryRaw<{ payload: Payload }[]>`
    SELECT payload FROM recorded_events
    WHERE event_name = ${kind.eventName} AND payload->>'project_id' = ${String(project.id)}
    ORDER BY id DESC LIMIT 1`;
  const payload = recorded ? await kind.build(deps, requester, recorded.payload) : null;
  if (!payload) throw unprocessable();
  return payload;
}
