// Pipeline creation (GitLab's Ci::CreatePipelineService): store the pipeline and its jobs
// (store.ts), then process it once (process.ts).
import type { CiDeps } from "../deps.ts";
import type { Pipeline } from "../generated/prisma/client.ts";
import { publishStatusChanges } from "../events/publish.ts";
import { processPipelineById } from "./process.ts";
import { storePipeline, type CreateOutcome, type NewPipeline } from "./store.ts";

export type { CreateOutcome, NewPipeline, PipelineVariable } from "./store.ts";

export async function createPipeline(deps: CiDeps, input: NewPipeline): Promise<CreateOutcome> {
  const outcome = await storePipeline(deps, input);
  if (!("created" in outcome)) return outcome;
  // The pipeline hook's first call is the new pipeline (a failed one, for yaml errors).
  await publishStatusChanges(deps, outcome.created.id);
  if (outcome.compiled) await processPipelineById(deps, outcome.created.id);
  return { created: await deps.prisma.pipeline.findUniqueOrThrow({ where: { id: outcome.created.id } }) };
}

/**
 * The pipeline a redelivered event finds it made, finished: a creator killed between storing it
 * and processing it (createPipeline's two steps) left it `created`, with no job ever pending.
 * Publishing claims only unpublished changes and processing is idempotent, so a pipeline that
 * was finished is returned as it is.
 */
export async function finishStoredPipeline(deps: CiDeps, pipeline: Pipeline): Promise<Pipeline> {
  if (pipeline.status !== "created") return pipeline;
  await publishStatusChanges(deps, pipeline.id);
  await processPipelineById(deps, pipeline.id);
  return deps.prisma.pipeline.findUniqueOrThrow({ where: { id: pipeline.id } });
}
