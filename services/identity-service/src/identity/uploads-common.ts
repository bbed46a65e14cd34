// Project Markdown uploads (GitLab's Upload with FileUploader): the bytes in the object store
// under a key derived from the project and the secret, the row naming them.
import { badRequest, notFound, ServiceError, status } from "@quarry/grpc";
import { AccessLevel, RECORD_NOT_FOUND_MESSAGE } from "@quarry/gitlab";
import type { Upload as UploadMessage } from "@quarry/proto/types/identity/v1/Upload";
import type { PrismaClient, Tx } from "../deps.ts";
import type { Upload } from "../generated/prisma/client.ts";
import type { ActorInfo } from "./access.ts";
import { TYPE_OF_EXTENSION } from "./avatars.ts";
import type { ProjectRow } from "./convert.ts";
import { requireLevel, visibleProject } from "./lookup.ts";

type Db = PrismaClient | Tx;

/**
 * CarrierWave's sanitized file name (SanitizedFile#sanitize): the last path segment, every
 * character but word characters, `.`, `-` and `+` replaced by `_`, and a name of dots only
 * (`..`) prefixed with `_` so that it never names a directory.
 */
export function sanitizeUploadFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = base.replace(/[^\p{L}\p{M}\p{N}_.\-+]/gu, "_");
  if (!clean) return "file";
  return /^\.+$/.test(clean) ? `_${clean}` : clean;
}

const TYPES: Record<string, string> = {
  ...TYPE_OF_EXTENSION,
  svg: "image/svg+xml",
  mp4: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  wav: "audio/wav",
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  html: "text/html",
  htm: "text/html",
  json: "application/json",
  pdf: "application/pdf",
  zip: "application/zip",
  gz: "application/gzip",
};

/** The media type GitLab (MIME::Types) gives the file name's extension; octet-stream otherwise. */
export function uploadContentType(filename: string): string {
  const ext = filename.includes(".") ? filename.split(".").pop()!.toLowerCase() : "";
  return TYPES[ext] ?? "application/octet-stream";
}

export const uploadObjectKey = (projectId: number, secret: string, filename: string) => `project/${projectId}/uploads/${secret}/${filename}`;

export function toUploadMessage(u: Upload, project: { pathWithNamespace: string }): UploadMessage {
  return {
    projectId: u.projectId,
    id: u.id,
    secret: u.secret,
    filename: u.filename,
    size: u.size,
    contentType: u.contentType,
    uploadedById: u.uploadedById ?? 0,
    createdAt: u.createdAt.toISOString(),
    projectPathWithNamespace: project.pathWithNamespace,
  };
}

/** The project's full path, as the rows carry it. */
export const projectPath = (p: ProjectRow) => `${p.namespace.fullPath}/${p.path}`;

/**
 * The project for an upload call. `minLevel` 0 means "whoever can see it" (GitLab's read_upload);
 * otherwise the level is required (admin_upload, destroy_upload: Maintainer; 403 without it, also
 * for anonymous readers of a public project, as GitLab's authorize! answers them).
 */
export async function uploadProject(db: Db, actor: ActorInfo, project: string, minLevel: number): Promise<ProjectRow> {
  const { project: p, levels } = await visibleProject(db, actor, project);
  if (minLevel > 0) requireLevel(actor, levels.effective, minLevel);
  return p;
}

export const MAINTAINER = AccessLevel.MAINTAINER;

/**
 * The upload named by id, or by secret and file name, in the project. Missing, in GitLab's words:
 * by id the finder's RecordNotFound (`404 Not found`); by secret present_carrierwave_file!'s
 * `404 Not Found`, or for a deletion Uploads::DestroyService's error through bad_request!.
 */
export async function findUpload(db: Db, projectId: number, by: { id: number; secret: string; filename: string }, forDeletion = false): Promise<Upload> {
  if (by.id > 0) {
    const upload = await db.upload.findFirst({ where: { id: by.id, projectId } });
    if (!upload) throw new ServiceError(status.NOT_FOUND, { message: RECORD_NOT_FOUND_MESSAGE });
    return upload;
  }
  const upload = await db.upload.findFirst({ where: { projectId, secret: by.secret, filename: by.filename } });
  if (upload) return upload;
  if (forDeletion) {
    throw badRequest("400 Bad request - The resource that you are attempting to access does not exist or you don't have permission to perform this action.");
  }
  throw notFound();
}

/** The object keys of the projects' uploads, read before the rows cascade away with the projects. */
export async function uploadKeysOf(db: Db, projectIds: number[]): Promise<string[]> {
  if (!projectIds.length) return [];
  const rows = await db.upload.findMany({ where: { projectId: { in: projectIds } }, select: { objectKey: true } });
  return rows.map((r) => r.objectKey);
}
