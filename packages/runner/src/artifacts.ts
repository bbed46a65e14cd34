import { createReadStream, createWriteStream } from "node:fs";
import { chmod, lstat, mkdir, readlink, realpath, rm, symlink } from "node:fs/promises";
import { constants } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { createGzip } from "node:zlib";
import yauzl from "yauzl";
import yazl from "yazl";
import { isInside, type ArtifactEntry } from "./artifact-paths.ts";
import type { RunnerApi } from "./client.ts";
import { sleep, style } from "./log.ts";
import type { ArtifactSpec, JobDependency, JobPayload } from "./protocol.ts";
import { StageFailure, type TraceWriter } from "./stage.ts";

/** A zip of the entries, produced while it is read (files are opened one at a time by yazl). */
export async function zipStream(entries: ArtifactEntry[]): Promise<AsyncIterable<Uint8Array>> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    if (entry.kind === "dir") zip.addEmptyDirectory(entry.rel);
    else if (entry.kind === "file") zip.addFile(entry.abs, entry.rel);
    else {
      const { mode } = await lstat(entry.abs);
      zip.addBuffer(Buffer.from(await readlink(entry.abs)), entry.rel, { mode });
    }
  }
  zip.end();
  return zip.outputStream as Readable;
}

/** Each file as one gzip member, the members concatenated (gitlab-runner's gzip artifact format). */
export async function* gzipStream(entries: ArtifactEntry[]): AsyncGenerator<Uint8Array> {
  for (const entry of entries) {
    if (entry.kind !== "file") continue;
    const source = createReadStream(entry.abs);
    const gzip = createGzip();
    // A read error destroys gzip too and so surfaces in the loop; this promise only needs settling.
    const done = pipeline(source, gzip).catch(() => undefined);
    try {
      for await (const chunk of gzip) yield chunk as Buffer;
    } finally {
      source.destroy();
      await done;
    }
  }
}

/** The uploaded file's name, as gitlab-runner's artifacts-uploader names it. */
export function artifactFilename(name: string | null | undefined, format: string): string {
  let base = path.basename(name || "artifacts");
  if (base === "" || base === ".") base = "default";
  if (format === "zip") return `${base}.zip`;
  if (format === "gzip") return `${base}.gz`;
  return base;
}

/** Upload attempts when the server fails (5xx) or cannot be reached; 4xx answers are final. */
const UPLOAD_ATTEMPTS = 3;

/**
 * Archives the entries in the spec's format and uploads them (`POST /jobs/:id/artifacts`).
 * Returns false when the upload failed, which fails the job as in gitlab-runner.
 */
export async function uploadArtifacts(
  api: RunnerApi,
  job: JobPayload,
  spec: ArtifactSpec,
  entries: ArtifactEntry[],
  o: { trace: TraceWriter; retryDelayMs: number },
): Promise<boolean> {
  const type = spec.artifact_type || "archive";
  const format = spec.artifact_format || "zip";
  const files = entries.filter((e) => e.kind === "file");
  if (format === "raw" && files.length !== 1) {
    o.trace.line(style.error(`Uploading artifacts as "${type}": only one file can be sent as raw, found ${files.length}`));
    return false;
  }
  const content = async (): Promise<AsyncIterable<Uint8Array>> => {
    if (format === "zip") return zipStream(entries);
    if (format === "gzip") return gzipStream(entries);
    if (format === "raw") return createReadStream(files[0]!.abs);
    throw new Error(`unsupported artifact format ${format}`);
  };
  const query: Record<string, string> = { artifact_type: type, artifact_format: format };
  if (spec.expire_in) query.expire_in = spec.expire_in;
  const filename = artifactFilename(spec.name, format);
  const prefix = `Uploading artifacts as "${type}" to coordinator...`;

  for (let attempt = 1; ; attempt++) {
    let retryable: boolean;
    try {
      const res = await api.uploadArtifacts(job, query, filename, await content());
      if (res.status === 201) {
        o.trace.line(`${prefix} ${res.status} ${res.statusText}  id=${job.id} responseStatus=${res.status} ${res.statusText}`);
        return true;
      }
      o.trace.line(style.warning(`${prefix} failed: ${res.status} ${res.statusText} ${res.message}`.trimEnd()));
      retryable = res.status >= 500;
    } catch (err) {
      o.trace.line(style.warning(`${prefix} failed: ${(err as Error).message}`));
      retryable = true;
    }
    if (!retryable || attempt >= UPLOAD_ATTEMPTS) return false;
    await sleep(o.retryDelayMs);
  }
}

/**
 * Extracts a zip into `dest`, overwriting files. yauzl rejects absolute and `..` names; in
 * addition no entry may be written through a symlink that leads out of `dest`.
 */
export async function extractZip(zipFile: string, dest: string): Promise<number> {
  const realDest = await realpath(dest);
  const zip = await yauzl.openPromise(zipFile, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true });
  let count = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const target = path.join(dest, entry.fileName);
      const mode = (entry.externalFileAttributes >>> 16) & 0xffff;
      const isDir = entry.fileName.endsWith("/");
      const parent = isDir ? target : path.dirname(target);
      await mkdir(parent, { recursive: true });
      if (!isInside(realDest, await realpath(parent))) throw new Error(`${entry.fileName}: outside of the extraction directory`);
      if (isDir) continue;
      const existing = await lstat(target).catch(() => null);
      if (existing?.isSymbolicLink() || existing?.isDirectory()) await rm(target, { recursive: true, force: true });
      const stream = await zip.openReadStreamPromise(entry);
      if ((mode & constants.S_IFMT) === constants.S_IFLNK) {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        if (existing) await rm(target, { force: true });
        await symlink(Buffer.concat(chunks).toString("utf8"), target);
      } else {
        await pipeline(stream, createWriteStream(target));
        // The mode option of createWriteStream only applies to new files.
        if (mode & 0o777) await chmod(target, mode & 0o777);
      }
      count++;
    }
  } finally {
    zip.close();
  }
  return count;
}

/**
 * Downloads each dependency's artifacts archive (`GET /jobs/:id/artifacts` with the running
 * job's token, redirects followed) and extracts it into the project directory.
 */
export async function downloadDependencies(api: RunnerApi, job: JobPayload, o: { projectDir: string; tmpDir: string; trace: TraceWriter }): Promise<void> {
  for (const dependency of job.dependencies ?? []) {
    if (!dependency.artifacts_file?.filename) continue;
    await downloadDependency(api, job, dependency, o);
  }
}

async function downloadDependency(
  api: RunnerApi,
  job: JobPayload,
  dependency: JobDependency,
  o: { projectDir: string; tmpDir: string; trace: TraceWriter },
): Promise<void> {
  o.trace.line(`Downloading artifacts for ${dependency.name} (${dependency.id})...`);
  const failed = (why: string) => {
    o.trace.line(style.warning(`Downloading artifacts from coordinator... ${why}  id=${dependency.id}`));
    return new StageFailure(`downloading artifacts of ${dependency.name} (${dependency.id}) failed: ${why}`);
  };
  let res: Response;
  try {
    res = await api.downloadArtifacts(dependency.id, job.token);
  } catch (err) {
    throw failed((err as Error).message);
  }
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel();
    throw failed(`${res.status} ${res.statusText}`);
  }
  await mkdir(o.tmpDir, { recursive: true });
  const archive = path.join(o.tmpDir, `artifacts-${dependency.id}.zip`);
  try {
    await pipeline(Readable.fromWeb(res.body as WebReadableStream), createWriteStream(archive));
    await extractZip(archive, o.projectDir);
  } catch (err) {
    throw failed((err as Error).message);
  } finally {
    await rm(archive, { force: true });
  }
  o.trace.line(`Downloading artifacts from coordinator... ok  id=${dependency.id} responseStatus=${res.status} ${res.statusText}`);
}
