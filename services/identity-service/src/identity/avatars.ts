// Avatars (GitLab's Avatarable and AvatarUploader): checked before anything is written, bytes in
// the object store, the reference (file name, key, media type) in the owning row.
import { randomUUID } from "node:crypto";
import { badRequest } from "@quarry/grpc";
import type { ObjectStore } from "@quarry/object-store";
import type { AvatarUpload__Output } from "@quarry/proto/types/identity/v1/AvatarUpload";

/** Avatarable::MAXIMUM_FILE_SIZE (200.kilobytes). */
export const AVATAR_MAX_BYTES = 200 * 1024;

/** Gitlab::FileTypeDetection::SAFE_IMAGE_EXT, in GitLab's order (it is quoted in the error). */
export const AVATAR_EXTENSIONS = ["png", "jpg", "jpeg", "gif", "bmp", "tiff", "ico", "webp"] as const;

/** The records that have avatars, as they appear in /uploads/-/system/<model>/avatar/<id>/<file>. */
export type AvatarModel = "user" | "project" | "group";

/** The image types avatars take, by extension (project uploads serve these and more). */
export const TYPE_OF_EXTENSION: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  bmp: "image/bmp",
  tiff: "image/tiff",
  ico: "image/vnd.microsoft.icon",
  webp: "image/webp",
};

const UNSUPPORTED = `file format is not supported. Please try one of the following supported formats: ${AVATAR_EXTENSIONS.join(", ")}`;
const TOO_BIG = "is too big (should be at most 200 KiB)";
/** UploadTypeCheck's words when the content is another image type than the extension says. */
const MISMATCH = "Content type does not match file extension";

/** The image type the bytes themselves declare (magic numbers), if any of the accepted ones. */
export function sniffImageType(data: Uint8Array): string | undefined {
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const starts = (sig: number[], at = 0) => b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (b.subarray(0, 6).toString("latin1") === "GIF87a" || b.subarray(0, 6).toString("latin1") === "GIF89a") return "image/gif";
  if (starts([0x42, 0x4d]) && b.length >= 26) return "image/bmp";
  if (starts([0x49, 0x49, 0x2a, 0x00]) || starts([0x4d, 0x4d, 0x00, 0x2a])) return "image/tiff";
  if (starts([0x00, 0x00, 0x01, 0x00]) && b.length >= 6 && b.readUInt16LE(4) > 0) return "image/vnd.microsoft.icon";
  if (starts([0x52, 0x49, 0x46, 0x46]) && b.subarray(8, 12).toString("latin1") === "WEBP") return "image/webp";
  return undefined;
}

/**
 * CarrierWave's sanitized file name: the last path segment, every character but word
 * characters, `.`, `-` and `+` replaced by `_`.
 */
export function sanitizeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = base.replace(/[^\p{L}\p{N}_.\-+]/gu, "_");
  return /^\.+$/.test(clean) || !clean ? "avatar" : clean.slice(-200);
}

/** A checked avatar change: remove the current one, or store this image. */
export type AvatarChange = { remove: true } | { remove: false; filename: string; data: Buffer; contentType: string };

/**
 * Checks an upload as GitLab's Avatarable does (type by extension, then size) and also that the
 * content is the image its extension says. Throws GitLab's `{"message":{"avatar":[…]}}` 400;
 * undefined when nothing changes (no upload, or an empty file, which CarrierWave ignores).
 */
export function checkAvatar(upload: AvatarUpload__Output | null | undefined): AvatarChange | undefined {
  if (!upload) return undefined;
  if (upload.remove) return { remove: true };
  const data = Buffer.from(upload.data ?? []);
  if (data.length === 0) return undefined;
  const filename = sanitizeFilename(upload.filename);
  const ext = filename.includes(".") ? filename.split(".").pop()!.toLowerCase() : "";
  const errors: string[] = [];
  const declared = TYPE_OF_EXTENSION[ext];
  const sniffed = sniffImageType(data);
  if (!declared || !sniffed) errors.push(UNSUPPORTED);
  else if (sniffed !== declared) errors.push(MISMATCH);
  if (data.length > AVATAR_MAX_BYTES) errors.push(TOO_BIG);
  if (errors.length) throw badRequest({ avatar: errors });
  return { remove: false, filename, data, contentType: sniffed! };
}

/** The avatar columns of a users, namespaces or projects row. */
export interface AvatarColumns {
  avatar: string | null;
  avatarKey: string | null;
  avatarContentType: string | null;
}

/**
 * The object writes of one request. Images are stored before the row that names them is
 * committed; `finish` then removes what the row no longer names (the replaced image), or, when
 * the transaction failed, the images it would have named: nothing is left behind either way.
 */
export class AvatarWrites {
  private readonly written: string[] = [];
  private readonly replaced: string[] = [];

  constructor(private readonly store: ObjectStore) {}

  /** Stores the new image (if any) for `model` `id`; the columns to write into its row. */
  async stage(model: AvatarModel, id: number, change: AvatarChange, currentKey: string | null | undefined): Promise<AvatarColumns> {
    if (currentKey) this.replaced.push(currentKey);
    if (change.remove) return { avatar: null, avatarKey: null, avatarContentType: null };
    const key = `${model}/${id}/${randomUUID()}`;
    this.written.push(key);
    await this.store.put(key, change.data, { size: change.data.length, contentType: change.contentType });
    return { avatar: change.filename, avatarKey: key, avatarContentType: change.contentType };
  }

  /** After the transaction: `committed` true drops replaced images, false drops the new ones. */
  async finish(committed: boolean): Promise<void> {
    const keys = committed ? this.replaced : this.written;
    if (keys.length) await this.store.deleteMany(keys).catch(() => {});
  }
}

/**
 * Removes the images of deleted records (after their rows are gone). A failure is logged, not
 * thrown: nothing names the objects any more, so they are unreachable and can be swept later.
 */
export async function removeAvatars(store: ObjectStore, keys: (string | null | undefined)[], log: { warn(o: object, m: string): void }): Promise<void> {
  const present = keys.filter((k): k is string => Boolean(k));
  if (!present.length) return;
  await store.deleteMany(present).catch((err) => log.warn({ err, keys: present }, "avatar removal failed"));
}

/** Runs `work` (a transaction) with an AvatarWrites, finishing it according to the outcome. */
export async function withAvatarWrites<T>(store: ObjectStore, work: (writes: AvatarWrites) => Promise<T>): Promise<T> {
  const writes = new AvatarWrites(store);
  let result: T;
  try {
    result = await work(writes);
  } catch (err) {
    await writes.finish(false);
    throw err;
  }
  await writes.finish(true);
  return result;
}
