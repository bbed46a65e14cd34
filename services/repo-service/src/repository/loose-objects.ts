// Writing git objects without a git process: a loose object is the zlib-deflated
// "<type> <size>\0<content>" at objects/<first two hex digits>/<rest>, named by the hash of that
// same header and content. API writes create a handful of objects each (blobs, the trees on the
// changed paths, a commit); spawning git for them cost a fork of this whole process per object.
// Written the way git writes them: a read-only temporary file in the object's directory, renamed
// into place, so a reader never sees a partial object; an object that exists already is only
// freshened (its mtime, which keeps `git gc` from pruning it as unreachable-and-old).
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { deflate, deflateSync, constants as zlib } from "node:zlib";

const deflateAsync = promisify(deflate);

export type WritableType = "blob" | "tree" | "commit";

/** Hash of each repository's object format ("sha1", or "sha256" for `extensions.objectFormat = sha256`). */
const formats = new Map<string, Promise<"sha1" | "sha256">>();

/** The repository's object format, from its config (read once per repository). */
export function objectFormat(gitDir: string): Promise<"sha1" | "sha256"> {
  let format = formats.get(gitDir);
  if (!format) {
    format = readFile(path.join(gitDir, "config"), "utf8").then(
      (config) => (/^\s*objectformat\s*=\s*sha256\s*$/im.test(config) ? "sha256" : "sha1"),
      () => "sha1" as const,
    );
    formats.set(gitDir, format);
  }
  return format;
}

/** The id git gives `content` as an object of `type`. */
export function objectId(format: "sha1" | "sha256", type: WritableType, content: Buffer): string {
  return createHash(format).update(`${type} ${content.length}\0`).update(content).digest("hex");
}

/** Above this size an object is compressed on the thread pool instead of in line. */
const INLINE_DEFLATE_BYTES = 64 * 1024;

/**
 * Objects written together: each gets its id when added (hashing needs no disk), so trees and a
 * commit can name objects not written yet, and `write` then stores them all at once.
 */
export class ObjectBatch {
  private readonly objects = new Map<string, { type: WritableType; content: Buffer }>();

  constructor(readonly format: "sha1" | "sha256") {}

  static async for(gitDir: string): Promise<ObjectBatch> {
    return new ObjectBatch(await objectFormat(gitDir));
  }

  /** Adds an object and returns its id. */
  add(type: WritableType, content: Buffer): string {
    const oid = objectId(this.format, type, content);
    this.objects.set(oid, { type, content });
    return oid;
  }

  /** Stores every object added (concurrently; each unless it exists). */
  async write(gitDir: string): Promise<void> {
    await Promise.all([...this.objects].map(([oid, { type, content }]) => storeObject(gitDir, oid, type, content)));
  }
}

/** Writes `content` as a loose object (unless it exists) and returns its id. */
export async function writeObject(gitDir: string, type: WritableType, content: Buffer): Promise<string> {
  const oid = objectId(await objectFormat(gitDir), type, content);
  await storeObject(gitDir, oid, type, content);
  return oid;
}

async function storeObject(gitDir: string, oid: string, type: WritableType, content: Buffer): Promise<void> {
  const dir = path.join(gitDir, "objects", oid.slice(0, 2));
  const file = path.join(dir, oid.slice(2));
  if (await freshen(file)) return;
  // core.looseCompression defaults to Z_BEST_SPEED.
  const raw = Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
  const options = { level: zlib.Z_BEST_SPEED };
  const deflated = raw.length > INLINE_DEFLATE_BYTES ? await deflateAsync(raw, options) : deflateSync(raw, options);
  const tmp = path.join(dir, `tmp_obj_${randomBytes(6).toString("hex")}`);
  try {
    await writeFile(tmp, deflated, { mode: 0o444, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    await mkdir(dir, { recursive: true });
    await writeFile(tmp, deflated, { mode: 0o444, flag: "wx" });
  }
  try {
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** Touches an existing loose object; false when there is none. */
async function freshen(file: string): Promise<boolean> {
  try {
    await stat(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
  const now = new Date();
  await utimes(file, now, now).catch(() => {});
  return true;
}
