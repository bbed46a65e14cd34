import type { Pipeline, Prisma } from "../generated/prisma/client.ts";

/**
 * Locks a pipeline row so that passes over one pipeline never interleave. Every transaction that
 * writes a pipeline's jobs takes this lock first (processing, canceling, claiming status changes to
 * publish): one order of locks, so two of them never deadlock.
 */
export async function lockPipeline(tx: Prisma.TransactionClient, pipelineId: number): Promise<Pipeline | null> {
  const rows = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM pipelines WHERE id = ${pipelineId} FOR UPDATE`;
  return rows.length ? tx.pipeline.findUnique({ where: { id: pipelineId } }) : null;
}
