// Job traces: appended by the runner into job_trace_chunks while the job runs, moved to object
// storage (a `trace` artifact) when it finishes, so the database keeps only metadata.
import { createHash } from "node:crypto";
import type { CiDeps } from "../deps.ts";
import type { Job } from "../generated/prisma/client.ts";

export const TRACE_FILENAME = "job.log";

export const artifactKey = (job: Pick<Job, "projectId" | "id">, fileType: string, filename: string): string =>
  `projects/${job.projectId}/jobs/${job.id}/${fileType}/${filename}`;

/** The trace received so far, from the chunk rows. */
export async function liveTrace(deps: CiDeps, jobId: number): Promise<Buffer> {
  const chunks = await deps.prisma.jobTraceChunk.findMany({ where: { jobId }, orderBy: { offset: "asc" } });
  return Buffer.concat(chunks.map((c) => Buffer.from(c.data)));
}

/**
 * GitLab's coverage parsing: the last line matching the job's `coverage` regex, and in the match
 * the last number, as a percentage.
 */
export function extractCoverage(trace: string, pattern: string | null | undefined): number | null {
  if (!pattern) return null;
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch {
    return null;
  }
  let found: string | null = null;
  for (const line of trace.split("\n")) {
    const m = regex.exec(line);
    if (m) found = m[0];
  }
  const numbers = found?.match(/\d+(?:\.\d+)?/g);
  if (!numbers) return null;
  const value = Number(numbers[numbers.length - 1]);
  return Number.isFinite(value) ? value : null;
}

/** Stores a finished job's trace as its `trace` artifact, records coverage, drops the chunks. */
export async function archiveTrace(deps: CiDeps, job: Job): Promise<void> {
  const trace = await liveTrace(deps, job.id);
  const key = artifactKey(job, "trace", TRACE_FILENAME);
  await deps.objectStore.put(key, trace, { size: trace.length, contentType: "text/plain; charset=utf-8" });
  const coverage = extractCoverage(trace.toString("utf8"), (job.options as { coverage?: string | null }).coverage);
  const sha256 = createHash("sha256").update(trace).digest("hex");
  await deps.prisma.$transaction([
    deps.prisma.jobArtifact.upsert({
      where: { jobId_fileType: { jobId: job.id, fileType: "trace" } },
      create: { jobId: job.id, projectId: job.projectId, fileType: "trace", fileFormat: "raw", filename: TRACE_FILENAME, size: trace.length, fileSha256: sha256, objectKey: key },
      update: { size: trace.length, fileSha256: sha256, objectKey: key },
    }),
    deps.prisma.job.update({ where: { id: job.id }, data: { coverage, traceLength: trace.length } }),
    deps.prisma.jobTraceChunk.deleteMany({ where: { jobId: job.id } }),
  ]);
}
