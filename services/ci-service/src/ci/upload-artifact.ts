import { createHash } from "node:crypto";
import { PassThrough } from "node:stream";
import { badRequest, forbidden, ServiceError, status } from "@quarry/grpc";
import type { UploadArtifactRequest__Output } from "@quarry/proto/types/ci/v1/UploadArtifactRequest";
import type { UploadArtifactResponse } from "@quarry/proto/types/ci/v1/UploadArtifactResponse";
import { parseDuration } from "../config/index.ts";
import type { CiDeps } from "../deps.ts";
import { afterArchiveUpload } from "../pipelines/artifacts.ts";
import { jobForRunnerToken, TOKEN_LIVE_STATUSES } from "../pipelines/job-token.ts";
import { toArtifactFile } from "../pipelines/messages.ts";
import { artifactKey } from "../pipelines/trace.ts";
import { publishArtifactsStatistics } from "../events/artifacts-statistics.ts";

/** GitLab's artifact_format per type: archives are zip, reports gzip; `raw` for the rest. */
const FORMATS = ["zip", "gzip", "raw"];
const TYPE = /^[a-z][a-z0-9_]{0,49}$/;
/** Default file names (GitLab's DEFAULT_FILE_NAMES). */
const DEFAULT_NAMES: Record<string, string> = { archive: "artifacts.zip", junit: "junit.xml.gz" };

/** When an artifact expires: `expire_in` from the upload ("never" keeps it), else the instance default. */
export function expiryFrom(expireIn: string, defaultExpireIn: string, now = new Date()): Date | null {
  const text = expireIn.trim() || defaultExpireIn;
  if (text.toLowerCase() === "never") return null;
  const seconds = parseDuration(text);
  if (seconds === null) throw badRequest("400 Bad request - expire_in is invalid");
  return new Date(now.getTime() + seconds * 1000);
}

/**
 * POST /jobs/:id/artifacts (GitLab's lib/api/ci/runner.rb): a header message, then the file's
 * bytes, streamed into object storage while its size and SHA-256 are computed. The row is
 * written only once the object is complete, so a broken upload leaves nothing visible.
 */
export const uploadArtifact =
  (deps: CiDeps) =>
  async (requests: AsyncIterable<UploadArtifactRequest__Output>): Promise<UploadArtifactResponse> => {
    const iterator = requests[Symbol.asyncIterator]();
    const first = await iterator.next();
    const header = first.done ? undefined : first.value.header;
    if (!header) throw badRequest("400 Bad request - file is missing");
    const job = await jobForRunnerToken(deps, Number(header.jobId), header.token);
    if (!TOKEN_LIVE_STATUSES.includes(job.status)) throw forbidden("403 Forbidden - Job is not running");
    const fileType = header.artifactType || "archive";
    const fileFormat = header.artifactFormat || (fileType === "archive" ? "zip" : "gzip");
    if (!TYPE.test(fileType) || fileType === "trace" || fileType === "metadata") throw badRequest("400 Bad request - artifact_type is invalid");
    if (!FORMATS.includes(fileFormat)) throw badRequest("400 Bad request - artifact_format is invalid");
    if (fileType === "archive" && fileFormat !== "zip") throw badRequest("400 Bad request - Archive artifacts must be zip");
    const expireAt = expiryFrom(header.expireIn, deps.settings.defaultArtifactsExpireIn);
    const filename = DEFAULT_NAMES[fileType] ?? (header.filename || `${fileType}.${fileFormat === "zip" ? "zip" : fileFormat === "gzip" ? "gz" : "txt"}`);
    const key = artifactKey(job, fileType, filename);

    const body = new PassThrough();
    const hash = createHash("sha256");
    let size = 0;
    const stored = deps.objectStore.put(key, body, { contentType: fileFormat === "zip" ? "application/zip" : "application/octet-stream" });
    try {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        const data = next.value.data;
        size += data.length;
        if (size > deps.settings.maxArtifactSizeBytes) throw new ServiceError(status.RESOURCE_EXHAUSTED, { message: "413 Request Entity Too Large" }, 413);
        hash.update(data);
        if (!body.write(data)) await new Promise((resolve) => body.once("drain", resolve));
      }
      body.end();
      await stored;
    } catch (err) {
      body.destroy(err as Error);
      await stored.catch(() => {});
      await deps.objectStore.delete(key).catch(() => {});
      throw err;
    }
    const fileSha256 = hash.digest("hex");
    const artifact = await deps.prisma.jobArtifact.upsert({
      where: { jobId_fileType: { jobId: job.id, fileType } },
      create: { jobId: job.id, projectId: job.projectId, fileType, fileFormat, filename, size, fileSha256, objectKey: key, expireAt },
      update: { fileFormat, filename, size, fileSha256, objectKey: key, expireAt },
    });
    if (fileType === "archive") await afterArchiveUpload(deps, job, artifact);
    await publishArtifactsStatistics(deps, [job.projectId]);
    return { file: toArtifactFile(artifact) };
  };
