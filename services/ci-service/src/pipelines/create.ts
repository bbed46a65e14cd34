// Pipeline creation (GitLab's Ci::CreatePipelineService): store the pipeline and its jobs
// (store.ts), then process it once (process.ts).
import type { CiDeps } from "../deps.ts";
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
