import { serverStream } from "@quarry/grpc";
import type { JobRequest__Output } from "@quarry/proto/types/ci/v1/JobRequest";
import type { JobTraceChunk } from "@quarry/proto/types/ci/v1/JobTraceChunk";
import type { CiDeps } from "../deps.ts";
import { findBuild } from "./get-job.ts";

/** Trace chunks read from the database per query while a job's trace is still there. */
const CHUNK_ROWS = 64;

/**
 * Streams a build's trace: the archived `trace` artifact once the job has one, else the chunks
 * the runner has sent so far, in order. The first message is empty, sent once the job is found,
 * so a caller can tell an empty trace from a refusal before it answers; an erased job, or one
 * without output, sends nothing more.
 */
export const getJobTrace = (deps: CiDeps) =>
  serverStream(async function* (req: JobRequest__Output): AsyncGenerator<JobTraceChunk> {
    const job = await findBuild(deps, Number(req.projectId), Number(req.jobId));
    yield { data: Buffer.alloc(0) };
    if (job.erasedAt) return;
    const archived = job.artifacts.find((a) => a.fileType === "trace");
    if (archived) {
      for await (const data of await deps.objectStore.get(archived.objectKey)) yield { data: Buffer.from(data as Uint8Array) };
      return;
    }
    for (let from = 0; ; ) {
      const chunks = await deps.prisma.jobTraceChunk.findMany({
        where: { jobId: job.id, offset: { gte: from } },
        orderBy: { offset: "asc" },
        take: CHUNK_ROWS,
      });
      for (const chunk of chunks) yield { data: Buffer.from(chunk.data) };
      if (chunks.length < CHUNK_ROWS) return;
      from = chunks.at(-1)!.offset + 1;
    }
  });
