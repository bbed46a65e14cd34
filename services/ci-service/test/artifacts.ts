// Artifacts for handler tests: real objects in the test's store, rows as an upload leaves them.
import { createHash } from "node:crypto";
import type { Job, JobArtifact } from "../src/generated/prisma/client.ts";
import { artifactKey } from "../src/pipelines/trace.ts";
import type { TestContext } from "./support.ts";

const FILES: Record<string, { filename: string; fileFormat: string }> = {
  archive: { filename: "artifacts.zip", fileFormat: "zip" },
  metadata: { filename: "metadata.gz", fileFormat: "gzip" },
  junit: { filename: "junit.xml.gz", fileFormat: "gzip" },
  trace: { filename: "job.log", fileFormat: "raw" },
};

/** Stores a `fileType` artifact of `job` (object and row), expiring at `expireAt` (null = kept). */
export async function storeArtifact(t: TestContext, job: Pick<Job, "id" | "projectId">, fileType: string, expireAt: Date | null): Promise<JobArtifact> {
  const { filename, fileFormat } = FILES[fileType]!;
  const body = Buffer.from(`${fileType} of job ${job.id}`);
  const objectKey = artifactKey(job, fileType, filename);
  await t.deps.objectStore.put(objectKey, body, { size: body.length });
  return t.deps.prisma.jobArtifact.create({
    data: {
      jobId: job.id,
      projectId: job.projectId,
      fileType,
      fileFormat,
      filename,
      size: body.length,
      fileSha256: createHash("sha256").update(body).digest("hex"),
      objectKey,
      expireAt,
    },
  });
}

/** Whether the artifact's object is still in the store. */
export const objectExists = async (t: TestContext, artifact: Pick<JobArtifact, "objectKey">): Promise<boolean> =>
  (await t.deps.objectStore.stat(artifact.objectKey)) !== null;
