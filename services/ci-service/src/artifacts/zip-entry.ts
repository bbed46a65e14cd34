// Streams one file out of a zip archive from its central directory record: one small read for the
// local header (its name and extra lengths may differ from the central ones), then exactly the
// entry's compressed bytes, inflated on the fly and checked against the recorded CRC-32 and size.
import { pipeline, type Readable, Transform, type TransformCallback } from "node:stream";
import { buffer } from "node:stream/consumers";
import { createInflateRaw } from "node:zlib";
import { crc32 } from "./crc32.ts";
import { InvalidZipError, LOCAL_HEADER_SIGNATURE, LOCAL_HEADER_SIZE, type ZipEntry } from "./zip-directory.ts";

/** Streams bytes [offset, offset + length) of the archive. */
export type ReadStream = (offset: number, length: number) => Promise<NodeJS.ReadableStream>;

const METHOD_STORED = 0;
const METHOD_DEFLATED = 8;

/** The entry exists but this reader cannot decode it (encryption, or a method other than stored/deflated). */
export class UnsupportedZipEntryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnsupportedZipEntryError";
  }
}

export class UnsupportedZipMethodError extends UnsupportedZipEntryError {
  readonly method: number;
  constructor(entryName: string, method: number) {
    super(`${entryName}: compression method ${method} is not supported (only stored and deflated)`);
    this.name = "UnsupportedZipMethodError";
    this.method = method;
  }
}

/** The entry's data does not match its CRC-32 or size, or is not valid deflate data. */
export class CorruptZipEntryError extends InvalidZipError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CorruptZipEntryError";
  }
}

/** A requested artifact path that can never name a file in an archive. */
export class InvalidArtifactPathError extends Error {
  constructor(path: string, reason: string) {
    super(`invalid artifact path ${JSON.stringify(path)}: ${reason}`);
    this.name = "InvalidArtifactPathError";
  }
}

/**
 * The entry's uncompressed content. Read errors, corrupt deflate data and CRC-32 or size
 * mismatches destroy the returned stream with an error (`CorruptZipEntryError` for the latter);
 * destroying it early releases the underlying read.
 * @throws UnsupportedZipEntryError, InvalidZipError (no local header at the recorded offset)
 */
export async function openZipEntry(read: ReadStream, entry: ZipEntry): Promise<Readable> {
  if (entry.encrypted) throw new UnsupportedZipEntryError(`${entry.name}: encrypted entries are not supported`);
  if (entry.method !== METHOD_STORED && entry.method !== METHOD_DEFLATED) {
    throw new UnsupportedZipMethodError(entry.name, entry.method);
  }
  const header = await buffer(await read(entry.localHeaderOffset, LOCAL_HEADER_SIZE));
  if (header.length < LOCAL_HEADER_SIZE || header.readUInt32LE(0) !== LOCAL_HEADER_SIGNATURE) {
    throw new InvalidZipError(`${entry.name}: no local file header at offset ${entry.localHeaderOffset}`);
  }
  const dataOffset = entry.localHeaderOffset + LOCAL_HEADER_SIZE + header.readUInt16LE(26) + header.readUInt16LE(28);
  const data = await read(dataOffset, entry.compressedSize);
  const verifier = new EntryVerifier(entry);
  // Errors reach the consumer through `verifier`, which pipeline destroys with them.
  const surfaced = () => {};
  if (entry.method === METHOD_DEFLATED) pipeline(data, createInflateRaw(), verifier, surfaced);
  else pipeline(data, verifier, surfaced);
  return verifier;
}

/** Passes the data through, counting and checksumming it; fails as soon as it exceeds the size. */
class EntryVerifier extends Transform {
  readonly #entry: ZipEntry;
  #size = 0;
  #crc = 0;

  constructor(entry: ZipEntry) {
    super();
    this.#entry = entry;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#size += chunk.length;
    if (this.#size > this.#entry.uncompressedSize) {
      callback(new CorruptZipEntryError(`${this.#entry.name}: more than the recorded ${this.#entry.uncompressedSize} bytes`));
      return;
    }
    this.#crc = crc32(chunk, this.#crc);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    const { name, uncompressedSize, crc32: expected } = this.#entry;
    if (this.#size !== uncompressedSize) {
      callback(new CorruptZipEntryError(`${name}: ${this.#size} bytes, the archive records ${uncompressedSize}`));
    } else if (this.#crc !== expected) {
      callback(new CorruptZipEntryError(`${name}: CRC-32 ${hex(this.#crc)} does not match the recorded ${hex(expected)}`));
    } else {
      callback();
    }
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // zlib reports bad deflate data with Z_* codes (Z_DATA_ERROR, Z_BUF_ERROR for truncated input).
    const code = (error as NodeJS.ErrnoException | null)?.code;
    callback(code?.startsWith("Z_") ? new CorruptZipEntryError(`${this.#entry.name}: ${error!.message}`, { cause: error }) : error);
  }
}

const hex = (crc: number) => crc.toString(16).padStart(8, "0");

/**
 * The entry GitLab's `artifacts/*artifact_path` endpoint serves for `path`: the first file whose
 * name is the normalised path (gitlab-zip-cat takes the first match too). Directories are not
 * files: a path ending in "/" or naming a directory entry finds nothing.
 * @throws InvalidArtifactPathError
 */
export function findZipEntry(entries: readonly ZipEntry[], path: string): ZipEntry | undefined {
  const wanted = normalizeArtifactPath(path);
  if (wanted.endsWith("/")) return undefined;
  return entries.find((entry) => !entry.isDirectory && entry.name === wanted);
}

/**
 * Leading "/" and "." segments are dropped ("/a/./b" → "a/b"), empty segments collapse; ".."
 * is refused rather than resolved, as are NUL (GitLab's Artifacts::Path rejects it) and the empty path.
 * A trailing "/" is kept: it asks for a directory.
 */
export function normalizeArtifactPath(path: string): string {
  if (path.includes("\0")) throw new InvalidArtifactPathError(path, "contains a NUL byte");
  const segments = path.split("/");
  if (segments.includes("..")) throw new InvalidArtifactPathError(path, '".." segments are not allowed');
  const kept = segments.filter((segment) => segment !== "" && segment !== ".");
  if (kept.length === 0) throw new InvalidArtifactPathError(path, "names no file");
  const directory = segments.at(-1) === "" || segments.at(-1) === ".";
  return kept.join("/") + (directory ? "/" : "");
}
