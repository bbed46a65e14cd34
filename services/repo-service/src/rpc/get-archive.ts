import { spawn } from "node:child_process";
import { notFound } from "@quarry/grpc";
import type { GetArchiveRequest__Output } from "@quarry/proto/types/repo/v1/GetArchiveRequest";
import type { GetArchiveResponse__Output as GetArchiveResponse } from "@quarry/proto/types/repo/v1/GetArchiveResponse";
import type { RepoDeps } from "../deps.ts";
import { gitEnvironment, GitError, isRepository } from "../git/git.ts";
import { treePath } from "./list-tree.ts";
import { resolveCommitOid } from "../git/trees.ts";

/** Largest data chunk per stream message. */
export const ARCHIVE_CHUNK_BYTES = 1024 * 1024;

export type ArchiveFormat = "tar" | "tar.gz" | "tar.bz2" | "zip";

/** GitLab's format names and aliases; anything else falls back to tar.gz, as GitLab does. */
export function archiveFormat(requested: string): ArchiveFormat {
  if (["tar.bz2", "tbz", "tbz2", "tb2", "bz2"].includes(requested)) return "tar.bz2";
  if (requested === "tar" || requested === "zip") return requested;
  return "tar.gz";
}

/**
 * The archive's name without extension, also its top directory (GitLab's archive_prefix with
 * append_sha): "<project>-<ref>-<sha>[-<path>]", slashes turned into dashes.
 */
export function archivePrefix(projectPath: string, ref: string, sha: string, path: string): string {
  const segments = [projectPath, ref.replaceAll("/", "-"), sha];
  if (path) segments.push(path.replaceAll("/", "-"));
  return segments.join("-");
}

/**
 * Compression is pinned here, not left to `tar.tar.gz.command` from the system's git config, so
 * that the same commit and format always give the same bytes: `gzip -n` leaves out the name and
 * time stamp, bzip2 has neither; tar and zip entries carry the commit time.
 */
const COMPRESSORS = ["-c", "tar.tar.gz.command=gzip -cn", "-c", "tar.tar.bz2.command=bzip2 -c"];

/** Re-cuts a byte stream into chunks of at most `max` bytes. */
async function* chunked(source: AsyncIterable<Buffer>, max: number): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    for (let i = 0; i < chunk.length; i += max) yield chunk.subarray(i, i + max);
  }
}

/**
 * Streams `git archive` of a commit: first a message with the file name, then the archive in
 * chunks (read as the client takes them, never buffered whole). Unknown ref or path:
 * `404 File Not Found` before anything is sent. A caller that goes away stops git.
 */
export const getArchive = (deps: RepoDeps) =>
  async function* (req: GetArchiveRequest__Output): AsyncGenerator<GetArchiveResponse> {
    const dir = deps.storages.resolve(req.diskPath);
    if (!(await isRepository(dir))) throw notFound("Repository");
    const sha = await resolveCommitOid(deps.catFile, dir, req.ref);
    if (!sha) throw notFound("File");
    const path = treePath(req.path);
    if (path === null || (path !== "" && !(await deps.catFile.info(dir, `${sha}:${path}`)))) throw notFound("File");
    const format = archiveFormat(req.format);
    const prefix = archivePrefix(req.projectPath, req.ref, sha, req.path);
    yield { fileName: `${prefix}.${format}`, data: Buffer.alloc(0) };

    const pathspecs = [
      ...(path ? [`:(literal)${path}`] : []),
      ...req.excludePaths
        .map(treePath)
        .filter((p): p is string => !!p)
        .map((p) => `:(exclude,literal)${p}`),
    ];
    const args = [...COMPRESSORS, "--git-dir", dir, "archive", `--format=${format}`, `--prefix=${prefix}/`, sha, "--", ...pathspecs];
    const child = spawn("git", args, { env: gitEnvironment(), stdio: ["ignore", "pipe", "pipe"] });
    const stderr: Buffer[] = [];
    child.stderr.on("data", (c: Buffer) => stderr.push(c));
    const exited = new Promise<number | null>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", resolve);
    });
    exited.catch(() => {}); // awaited below; this only keeps an early spawn failure from going unhandled
    try {
      for await (const data of chunked(child.stdout, ARCHIVE_CHUNK_BYTES)) yield { fileName: "", data };
      const code = await exited;
      if (code !== 0) throw new GitError(["archive", sha], code, Buffer.concat(stderr).toString("utf8"));
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    }
  };
