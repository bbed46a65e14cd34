// Writing git objects without a git process: a loose object is the zlib-deflated
// "<type> <size>\0<content>" at objects/<first two hex digits>/<rest>, named by the hash of that
// same header and content. API writes create a handful of objects each (blobs, the trees on the
// changed paths, a commit); spawning git for them cost a fork of this whole process per object.
// Written the way git writes them: a read-only temporary file in the object's directory, renamed
// into place, so a reader never sees a partial object; an object that exists already is only
// freshened (its mtime, which keeps `git gc` from pruning it as unreachable-and-old).
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { mkdir, readFile, rename, rm, utimes, writeFile } from "node:fs/promises";
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

/** Objects up to this size are compressed and written in line, larger ones on the thread pool. */
const INLINE_BYTES = 64 * 1024;

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
  const raw = Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
  // core.looseCompression defaults to Z_BEST_SPEED.
  const options = { level: zlib.Z_BEST_SPEED };
  const tmp = path.join(dir, `tmp_obj_${randomBytes(6).toString("hex")}`);
  if (raw.length > INLINE_BYTES) {
    if (await freshen(file)) return;
    const deflated = await deflateAsync(raw, options);
    await writeFile(tmp, deflated, { mode: 0o444, flag: "wx" }).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== "ENOENT") throw err;
      await mkdir(dir, { recursive: true });
      await writeFile(tmp, deflated, { mode: 0o444, flag: "wx" });
    });
    await rename(tmp, file).catch(async (err: unknown) => {
      await rm(tmp, { force: true });
      throw err;
    });
    return;
  }
  // A small object is written in line: a handful of system calls on the local disk take far less
  // time than as many round trips through the thread pool, which other work queues on.
  if (freshenSync(file)) return;
  const deflated = deflateSync(raw, options);
  try {
    writeFileSync(tmp, deflated, { mode: 0o444, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    mkdirSync(dir, { recursive: true });
    writeFileSync(tmp, deflated, { mode: 0o444, flag: "wx" });
  }
  try {
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Touches an existing loose object; false when there is none. One that is there but not ours to
 * touch (written by another user) still counts as there.
 */
async function freshen(file: string): Promise<boolean> {
  const now = new Date();
  return utimes(file, now, now).then(() => true, existsAnyway);
}

function freshenSync(file: string): boolean {
  const now = new Date();
  try {
    utimesSync(file, now, now);
    return true;
  } catch (err) {
    return existsAnyway(err);
  }
}

function existsAnyway(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return false;
  if (code === "EPERM" || code === "EACCES") return true;
  throw err;
}
