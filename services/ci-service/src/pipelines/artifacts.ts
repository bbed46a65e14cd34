// Artifacts after upload and at download: the metadata file GitLab keeps next to an archive,
// and which job's file a download means (by job, or by ref and job name).
import { notFound } from "@quarry/grpc";
import type { CiDeps } from "../deps.ts";
import type { Job, JobArtifact } from "../generated/prisma/client.ts";
import { buildArtifactsMetadata, readZipDirectoryFromStore } from "../artifacts/index.ts";
import { artifactKey } from "./trace.ts";

export const METADATA_FILENAME = "metadata.gz";

/** GitLab's bare `not_found!`. */
export const plainNotFound = () => notFound();

/**
 * GitLab (Workhorse) derives `metadata.gz` from every uploaded archive; it lists the archive's
 * entries and is shown in the job's `artifacts`. An archive that is not a zip is refused.
 */
export async function afterArchiveUpload(deps: CiDeps, job: Job, archive: JobArtifact): Promise<void> {
  const entries = await readZipDirectoryFromStore(deps.objectStore, archive.objectKey);
  const metadata = buildArtifactsMetadata(entries);
  const key = artifactKey(job, "metadata", METADATA_FILENAME);
  await deps.objectStore.put(key, metadata, { size: metadata.length, contentType: "application/gzip" });
  const row = { fileFormat: "gzip", filename: METADATA_FILENAME, size: metadata.length, objectKey: key, expireAt: archive.expireAt };
  await deps.prisma.jobArtifact.upsert({
    where: { jobId_fileType: { jobId: job.id, fileType: "metadata" } },
    create: { jobId: job.id, projectId: job.projectId, fileType: "metadata", ...row },
    update: row,
  });
}

/**
 * The job of `jobName` in the latest successful pipeline for `ref` (GitLab's
 * Project#latest_successful_build_for_ref!): pipelines newest first; within one, the parent
 * before its child pipelines, so a parent's job wins over a child's of the same name.
 */
export async function latestSuccessfulJobForRef(deps: CiDeps, projectId: number, ref: string, jobName: string): Promise<Job> {
  const pipeline = await deps.prisma.pipeline.findFirst({
    where: { projectId, ref, status: "success", parentPipelineId: null },
    orderBy: { id: "desc" },
  });
  if (!pipeline) throw plainNotFound();
  // The pipeline and its descendants, breadth first: parent first.
  for (let level = [pipeline.id]; level.length > 0; ) {
    const job = await deps.prisma.job.findFirst({
      where: { pipelineId: { in: level }, name: jobName, type: "build", retried: false, status: "success" },
      orderBy: [{ pipelineId: "asc" }, { id: "desc" }],
    });
    if (job) return job;
    const children = await deps.prisma.pipeline.findMany({ where: { parentPipelineId: { in: level } }, select: { id: true } });
    level = children.map((c) => c.id);
  }
  throw plainNotFound();
}
