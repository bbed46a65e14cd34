import path from "node:path";
import { badRequest, notFound, serverStream } from "@quarry/grpc";
import type { ArtifactDownloadRequest__Output } from "@quarry/proto/types/ci/v1/ArtifactDownloadRequest";
import type { ArtifactDownloadResponse } from "@quarry/proto/types/ci/v1/ArtifactDownloadResponse";
import { findZipEntry, InvalidArtifactPathError, openZipEntryFromStore, readZipDirectoryFromStore } from "../artifacts/index.ts";
import type { CiDeps } from "../deps.ts";
import { latestSuccessfulJobForRef, plainNotFound } from "../pipelines/artifacts.ts";

/** Presigned URLs live this long: enough to start the download, short enough not to be shared. */
const PRESIGN_SECONDS = 5 * 60;

/**
 * Artifact downloads (GitLab's lib/api/ci/job_artifacts.rb): a job's archive (or another file
 * type), by job id or as the job of that name in the ref's latest successful pipeline; or one
 * file extracted from the archive, read through the zip's central directory with range reads
 * so the archive never sits in memory. With direct downloads on, whole files answer with a
 * short-lived presigned URL instead of bytes.
 */
export const downloadArtifact = (deps: CiDeps) =>
  serverStream(async function* (req: ArtifactDownloadRequest__Output): AsyncGenerator<ArtifactDownloadResponse> {
    const projectId = Number(req.projectId);
    const job = req.jobId
      ? await deps.prisma.job.findFirst({ where: { id: Number(req.jobId), projectId, type: "build" } })
      : await latestSuccessfulJobForRef(deps, projectId, req.refName, req.jobName);
    if (!job) throw plainNotFound();
    const fileType = req.fileType || "archive";
    const artifact = await deps.prisma.jobArtifact.findUnique({ where: { jobId_fileType: { jobId: job.id, fileType } } });
    if (!artifact || (artifact.expireAt && artifact.expireAt <= new Date())) throw plainNotFound();

    if (!req.artifactPath) {
      if (req.allowRedirect && deps.settings.artifactsDirectDownload) {
        const url = await deps.objectStore.presignedGetUrl(artifact.objectKey, PRESIGN_SECONDS, { filename: artifact.filename });
        if (url) {
          yield { header: { filename: artifact.filename, size: Number(artifact.size), redirectUrl: url, jobId: job.id } };
          return;
        }
      }
      yield { header: { filename: artifact.filename, size: Number(artifact.size), redirectUrl: "", jobId: job.id } };
      for await (const chunk of await deps.objectStore.get(artifact.objectKey)) yield { data: chunk as Buffer };
      return;
    }

    if (fileType !== "archive") throw badRequest("400 Bad request - artifact_path needs an archive");
    const entries = await readZipDirectoryFromStore(deps.objectStore, artifact.objectKey);
    let entry: ReturnType<typeof findZipEntry>;
    try {
      entry = findZipEntry(entries, req.artifactPath);
    } catch (err) {
      if (err instanceof InvalidArtifactPathError) throw plainNotFound();
      throw err;
    }
    if (!entry) throw notFound("File");
    yield { header: { filename: path.posix.basename(entry.name), size: entry.uncompressedSize, redirectUrl: "", jobId: job.id } };
    for await (const chunk of await openZipEntryFromStore(deps.objectStore, artifact.objectKey, entry)) yield { data: chunk as Buffer };
  });
