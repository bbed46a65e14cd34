import { createHash, randomUUID } from "node:crypto";
import { constants as fsConstants, type BigIntStats, type Dirent } from "node:fs";
import { lstat, mkdir, open, readdir, readFile, rename, rmdir, stat, unlink, writeFile, type FileHandle } from "node:fs/promises";
import path from "node:path";
import {
  assertValidBucketName,
  assertValidKey,
  assertValidPrefix,
  compareKeys,
  ObjectNotFoundError,
  type ObjectInfo,
  type ObjectStore,
  type PutBody,
  type PutOptions,
} from "./object-store.ts";
import {
  assertExpiry,
  assertRange,
  assertSizeOption,
  chunkToBuffer,
  emptyStream,
  errnoCode,
  isBinaryBody,
  sizeMismatch,
  toBuffer,
  toReadable,
} from "./internal.ts";

export interface LocalDiskObjectStoreOptions {
  root: string;
  bucket: string;
}

/** Sidecar stored per object; `ino` ties it to the exact file it describes. */
interface Sidecar {
  v: 1;
  etag: string;
  size: number;
  ino: string;
  contentType?: string;
}

// Never follow a symlink planted at an object path (keys themselves cannot create one).
const READ_FLAGS = fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0);
const NOT_FOUND_CODES = new Set(["ENOENT", "ENOTDIR", "ELOOP"]);
const DELETE_CONCURRENCY = 16;

/**
 * Objects on a local filesystem.
 *
 * Layout under `root`:
 *   <bucket>/<key>          object bytes (plain files, browsable)
 *   .meta/<bucket>/<key>    JSON sidecar: md5 etag, size, inode, content type
 *   .tmp/<uuid>             in-flight writes, renamed into place when complete
 * The sidecar and temp trees live outside `<bucket>/` so that no key is reserved and listing never
 * has to filter them; bucket names cannot start with "." so they cannot collide.
 *
 * Limitation: a key cannot be both an object and a "directory" of other keys (`a` and `a/b`);
 * such a put fails instead of silently shadowing data.
 */
export class LocalDiskObjectStore implements ObjectStore {
  readonly bucket: string;
  private readonly bucketDir: string;
  private readonly metaDir: string;
  private readonly tmpDir: string;

  constructor(opts: LocalDiskObjectStoreOptions) {
    assertValidBucketName(opts.bucket);
    this.bucket = opts.bucket;
    const root = path.resolve(opts.root);
    this.bucketDir = path.join(root, opts.bucket);
    this.metaDir = path.join(root, ".meta", opts.bucket);
    this.tmpDir = path.join(root, ".tmp");
  }

  async ensureBucket(): Promise<void> {
    // recursive mkdir does not fail on existing directories, so concurrent callers are fine.
    await mkdir(this.bucketDir, { recursive: true });
    await mkdir(this.metaDir, { recursive: true });
    await mkdir(this.tmpDir, { recursive: true });
  }

  async put(key: string, body: PutBody, opts: PutOptions = {}): Promise<ObjectInfo> {
    assertValidKey(key);
    assertSizeOption(opts.size);
    await this.assertBucket();

    const tmp = path.join(this.tmpDir, randomUUID());
    const tmpMeta = `${tmp}.meta`;
    let fh: FileHandle | undefined;
    try {
      fh = await open(tmp, "wx", 0o644).catch(async (err: unknown) => {
        if (errnoCode(err) !== "ENOENT") throw err;
        await mkdir(this.tmpDir, { recursive: true }); // bucket dir made by hand, or .tmp removed
        return open(tmp, "wx", 0o644);
      });
      const hash = createHash("md5");
      let size = 0;
      const write = async (buf: Buffer) => {
        size += buf.length;
        if (opts.size !== undefined && size > opts.size) throw sizeMismatch(key, opts.size, size);
        hash.update(buf);
        await writeAll(fh!, buf);
      };
      if (isBinaryBody(body)) {
        await write(toBuffer(body));
      } else {
        // Awaiting each write gives natural backpressure; only one chunk is held in memory.
        for await (const chunk of toReadable(body)) await write(chunkToBuffer(chunk));
      }
      if (opts.size !== undefined && size !== opts.size) throw sizeMismatch(key, opts.size, size);
      // fsync before rename: after a crash the name must point at complete data, not an empty file.
      await fh.sync();
      const st = await fh.stat({ bigint: true });
      await fh.close();
      fh = undefined;

      const etag = hash.digest("hex");
      const sidecar: Sidecar = { v: 1, etag, size, ino: st.ino.toString() };
      if (opts.contentType !== undefined) sidecar.contentType = opts.contentType;
      // Sidecar first: a reader that sees the new object then finds matching metadata. If a
      // concurrent put interleaves, the inode check in readSidecar detects the mismatch.
      await writeFile(tmpMeta, JSON.stringify(sidecar), { flag: "wx", mode: 0o644 });
      await this.renameInto(tmpMeta, this.metaPath(key), key);
      await this.renameInto(tmp, this.objectPath(key), key);

      const info: ObjectInfo = { key, size, etag, lastModified: new Date(Number(st.mtimeMs)) };
      if (opts.contentType !== undefined) info.contentType = opts.contentType;
      return info;
    } catch (err) {
      await fh?.close().catch(() => {});
      // (for-await already destroyed a stream body when we bailed out of the loop)
      await Promise.all([unlinkQuiet(tmp), unlinkQuiet(tmpMeta)]);
      throw err;
    }
  }

  async get(key: string): Promise<NodeJS.ReadableStream> {
    assertValidKey(key);
    const { fh } = await this.openObject(key);
    return fh.createReadStream(); // closes the handle on end/error/destroy
  }

  async getRange(key: string, offset: number, length: number): Promise<NodeJS.ReadableStream> {
    assertValidKey(key);
    assertRange(offset, length);
    const { fh } = await this.openObject(key);
    if (length === 0) {
      await fh.close();
      return emptyStream();
    }
    // Reading past EOF just ends the stream, which gives the documented clamping.
    return fh.createReadStream({ start: offset, end: offset + length - 1 });
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    assertValidKey(key);
    let opened: { fh: FileHandle; st: BigIntStats };
    try {
      opened = await this.openObject(key);
    } catch (err) {
      if (err instanceof ObjectNotFoundError) return null;
      throw err;
    }
    const { fh, st } = opened;
    try {
      const sidecar = await this.readSidecar(key, st);
      const info: ObjectInfo = {
        key,
        size: Number(st.size),
        // Stale/missing sidecar (crash, concurrent writers, file edited by hand): hash the open
        // file so the etag is always correct, at the cost of one read.
        etag: sidecar?.etag ?? (await md5OfHandle(fh)),
        lastModified: new Date(Number(st.mtimeMs)),
      };
      if (sidecar?.contentType !== undefined) info.contentType = sidecar.contentType;
      return info;
    } finally {
      await fh.close();
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    const file = this.objectPath(key);
    try {
      await unlink(file);
    } catch (err) {
      const code = errnoCode(err);
      if (code === "ENOENT" || code === "ENOTDIR") {
        // already gone
      } else if ((code === "EISDIR" || code === "EPERM") && (await isDirectory(file))) {
        return; // `key` is only a prefix of other keys, not an object
      } else {
        throw err;
      }
    }
    await unlinkQuiet(this.metaPath(key));
    await Promise.all([pruneEmptyDirs(this.bucketDir, key), pruneEmptyDirs(this.metaDir, key)]);
  }

  async deleteMany(keys: string[]): Promise<void> {
    for (const key of keys) assertValidKey(key); // validate all before deleting anything
    const unique = [...new Set(keys)];
    for (let i = 0; i < unique.length; i += DELETE_CONCURRENCY) {
      await Promise.all(unique.slice(i, i + DELETE_CONCURRENCY).map((key) => this.delete(key)));
    }
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    assertValidPrefix(prefix);
    await this.assertBucket();
    const slash = prefix.lastIndexOf("/");
    yield* this.walk(prefix.slice(0, Math.max(slash, 0)), prefix.slice(slash + 1));
  }

  async presignedGetUrl(key: string, expirySeconds: number, _opts?: { filename?: string }): Promise<string | null> {
    assertValidKey(key);
    assertExpiry(expirySeconds);
    return null; // no HTTP endpoint of its own; callers stream via get() instead
  }

  /**
   * Yields objects under `dirRel` whose first name starts with `namePrefix`, in key order: a
   * directory `d` sorts as `d/`, which is exactly where all of its keys fall among its siblings.
   */
  private async *walk(dirRel: string, namePrefix: string): AsyncGenerator<ObjectInfo> {
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(this.bucketDir, dirRel), { withFileTypes: true });
    } catch (err) {
      if (NOT_FOUND_CODES.has(errnoCode(err) ?? "")) return;
      throw err;
    }
    const sorted = entries
      .filter((e) => e.name.startsWith(namePrefix) && (e.isFile() || e.isDirectory())) // skip symlinks etc.
      .map((e) => ({ name: e.name, dir: e.isDirectory(), sortKey: e.isDirectory() ? `${e.name}/` : e.name }))
      .sort((a, b) => compareKeys(a.sortKey, b.sortKey));
    for (const entry of sorted) {
      const key = dirRel ? `${dirRel}/${entry.name}` : entry.name;
      if (entry.dir) {
        yield* this.walk(key, "");
        continue;
      }
      let st: BigIntStats;
      try {
        st = await lstat(this.objectPath(key), { bigint: true });
      } catch (err) {
        if (NOT_FOUND_CODES.has(errnoCode(err) ?? "")) continue; // deleted meanwhile
        throw err;
      }
      if (!st.isFile()) continue;
      // Listing does not rehash files with a stale sidecar; etag is simply omitted then.
      const sidecar = await this.readSidecar(key, st);
      const info: ObjectInfo = { key, size: Number(st.size), lastModified: new Date(Number(st.mtimeMs)) };
      if (sidecar) info.etag = sidecar.etag;
      if (sidecar?.contentType !== undefined) info.contentType = sidecar.contentType;
      yield info;
    }
  }

  private objectPath(key: string): string {
    return path.join(this.bucketDir, ...key.split("/"));
  }

  private metaPath(key: string): string {
    return path.join(this.metaDir, ...key.split("/"));
  }

  private async assertBucket(): Promise<void> {
    try {
      if ((await stat(this.bucketDir)).isDirectory()) return;
    } catch (err) {
      if (errnoCode(err) !== "ENOENT") throw err;
    }
    throw new Error(`bucket ${JSON.stringify(this.bucket)} does not exist (call ensureBucket first)`);
  }

  /** Opens the object file; the handle pins the inode, so a concurrent replace cannot tear reads. */
  private async openObject(key: string): Promise<{ fh: FileHandle; st: BigIntStats }> {
    let fh: FileHandle;
    try {
      fh = await open(this.objectPath(key), READ_FLAGS);
    } catch (err) {
      if (NOT_FOUND_CODES.has(errnoCode(err) ?? "")) throw new ObjectNotFoundError(key, { cause: err });
      throw err;
    }
    try {
      const st = await fh.stat({ bigint: true });
      if (!st.isFile()) throw new ObjectNotFoundError(key); // a directory (key prefix), not an object
      return { fh, st };
    } catch (err) {
      await fh.close();
      throw err;
    }
  }

  private async readSidecar(key: string, st: BigIntStats): Promise<Sidecar | null> {
    let parsed: Partial<Sidecar>;
    try {
      parsed = JSON.parse(await readFile(this.metaPath(key), "utf8")) as Partial<Sidecar>;
    } catch {
      return null; // missing or corrupt: callers fall back
    }
    const valid = parsed.v === 1 && typeof parsed.etag === "string" && parsed.ino === st.ino.toString() && parsed.size === Number(st.size);
    return valid ? (parsed as Sidecar) : null;
  }

  /**
   * rename() with parent creation. Retries on ENOENT because a concurrent delete may prune the
   * freshly created (still empty) parent directory between mkdir and rename.
   */
  private async renameInto(src: string, dest: string, key: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await mkdir(path.dirname(dest), { recursive: true });
        await rename(src, dest);
        return;
      } catch (err) {
        const code = errnoCode(err);
        if (code === "ENOENT" && attempt < 5) continue;
        if (code === "EEXIST" || code === "ENOTDIR" || code === "EISDIR" || code === "ENOTEMPTY") {
          throw new Error(`cannot store ${JSON.stringify(key)}: it conflicts with an existing object or key prefix on disk`, { cause: err });
        }
        throw err;
      }
    }
  }
}

/** write() may be partial; loop until the whole buffer is on disk. */
async function writeAll(fh: FileHandle, buf: Buffer): Promise<void> {
  let off = 0;
  while (off < buf.length) {
    const { bytesWritten } = await fh.write(buf, off, buf.length - off);
    off += bytesWritten;
  }
}

async function md5OfHandle(fh: FileHandle): Promise<string> {
  const hash = createHash("md5");
  // autoClose: false — the caller owns the handle and closes it.
  for await (const chunk of fh.createReadStream({ start: 0, autoClose: false })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

async function unlinkQuiet(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (err) {
    const code = errnoCode(err);
    if (code !== "ENOENT" && code !== "ENOTDIR" && code !== "EISDIR" && code !== "EPERM") throw err;
  }
}

async function isDirectory(file: string): Promise<boolean> {
  try {
    return (await lstat(file)).isDirectory();
  } catch {
    return false;
  }
}

/** Removes now-empty parent directories of `key`, stopping at the first non-empty one. */
async function pruneEmptyDirs(base: string, key: string): Promise<void> {
  const segments = key.split("/");
  for (let n = segments.length - 1; n > 0; n--) {
    try {
      await rmdir(path.join(base, ...segments.slice(0, n)));
    } catch {
      return; // ENOTEMPTY, ENOENT, …: someone else still uses it
    }
  }
}
