import type { Upload__Output as Upload } from "@quarry/proto/types/identity/v1/Upload";
import type { User__Output as User } from "@quarry/proto/types/identity/v1/User";

/** Gitlab::FileTypeDetection: SAFE_IMAGE_EXT, SAFE_VIDEO_EXT and SAFE_AUDIO_EXT (SVG is not among them). */
const EMBEDDABLE_EXTENSIONS = new Set([
  "png",
  "jpg",
  "jpeg",
  "gif",
  "bmp",
  "tiff",
  "ico",
  "webp",
  "mp4",
  "m4v",
  "mov",
  "webm",
  "ogv",
  "mp3",
  "oga",
  "ogg",
  "spx",
  "wav",
]);

const extension = (filename: string) => (filename.includes(".") ? filename.split(".").pop()!.toLowerCase() : "");

/** Whether GitLab embeds the file (`![…](…)`, served inline): safe images, videos and audio. */
export const isEmbeddable = (filename: string) => EMBEDDABLE_EXTENSIONS.has(extension(filename));

/** The upload's URL relative to its project (GitLab's FileUploader#secure_url). */
export const uploadUrl = (u: Upload) => `/uploads/${u.secret}/${u.filename}`;

/**
 * Entities::ProjectUpload (FileUploader#to_h): `alt` is the file name without its extension,
 * `markdown` an image for embeddable files and a link otherwise, `full_path` the project's
 * id-based web path (GitLab 17.1 and later).
 */
export function projectUploadEntity(u: Upload) {
  const url = uploadUrl(u);
  const alt = u.filename.includes(".") ? u.filename.slice(0, u.filename.lastIndexOf(".")) : u.filename;
  return {
    id: Number(u.id),
    alt,
    url,
    full_path: `/-/project/${Number(u.projectId)}${url}`,
    markdown: isEmbeddable(u.filename) ? `![${alt}](${url})` : `[${u.filename}](${url})`,
  };
}

/** Entities::MarkdownUploadAdmin: a list row, with the uploader as UserSafe (null once deleted). */
export function markdownUploadAdminEntity(u: Upload, users: Map<number, User>) {
  const by = users.get(Number(u.uploadedById));
  return {
    id: Number(u.id),
    size: Number(u.size),
    filename: u.filename,
    created_at: u.createdAt,
    uploaded_by: by ? { id: Number(by.id), name: by.name, username: by.username } : null,
  };
}
