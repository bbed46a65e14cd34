// Job traces: appended by the runner into job_trace_chunks while the job runs, moved to object
// storage (a `trace` artifact) when it finishes, so the database keeps only metadata.
import { createHash } from "node:crypto";
import { compileUserRegex, UntrustedRegexpError, type UserRegex } from "@quarry/safe-regex";
import type { CiDeps } from "../deps.ts";
import type { Job } from "../generated/prisma/client.ts";
import { publishArtifactsStatistics } from "../events/artifacts-statistics.ts";

export const TRACE_FILENAME = "job.log";

export const artifactKey = (job: Pick<Job, "projectId" | "id">, fileType: string, filename: string): string =>
  `projects/${job.projectId}/jobs/${job.id}/${fileType}/${filename}`;

/** The trace received so far, from the chunk rows. */
export async function liveTrace(deps: CiDeps, jobId: number): Promise<Buffer> {
  const chunks = await deps.prisma.jobTraceChunk.findMany({ where: { jobId }, orderBy: { offset: "asc" } });
  return Buffer.concat(chunks.map((c) => Buffer.from(c.data)));
}

/**
 * GitLab's coverage parsing (Trace::Stream#extract_coverage): from the last line up, the first line
 * the job's `coverage` pattern matches with a number in it; of the line's matches, the last capture
 * group (or the whole match when the pattern has none), and in that the first number. The pattern
 * is the user's, so it runs with RE2: a trace cannot make it backtrack.
 */
export function extractCoverage(trace: string, pattern: string | null | undefined): number | null {
  if (!pattern) return null;
  let regex: UserRegex;
  try {
    regex = compileUserRegex(pattern);
  } catch (err) {
    // Only a pattern saved before RE2 validated `coverage` can get here; GitLab finds no coverage.
    if (err instanceof UntrustedRegexpError) return null;
    throw err;
  }
  const lines = trace.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.replace(/\r$/, "");
    if (!regex.test(line)) continue;
    const last = regex.scan(line).flat().at(-1);
    // GitLab fails on a group that took no part in the match, and then records no coverage.
    if (last == null) return null;
    const number = /\d+(?:\.\d+)?/.exec(last);
    if (number) return Number(number[0]);
  }
  return null;
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
      create: {
        jobId: job.id,
        projectId: job.projectId,
        fileType: "trace",
        fileFormat: "raw",
        filename: TRACE_FILENAME,
        size: trace.length,
        fileSha256: sha256,
        objectKey: key,
      },
      update: { size: trace.length, fileSha256: sha256, objectKey: key },
    }),
    deps.prisma.job.update({ where: { id: job.id }, data: { coverage, traceLength: trace.length } }),
    deps.prisma.jobTraceChunk.deleteMany({ where: { jobId: job.id } }),
  ]);
  await publishArtifactsStatistics(deps, [job.projectId]);
}
