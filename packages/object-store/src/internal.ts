import { Readable } from "node:stream";
import type { PutBody } from "./object-store.ts";

export function isBinaryBody(body: PutBody): body is Buffer | Uint8Array | string {
  return typeof body === "string" || body instanceof Uint8Array;
}

export function toBuffer(body: Buffer | Uint8Array | string): Buffer {
  if (typeof body === "string") return Buffer.from(body, "utf8");
  if (Buffer.isBuffer(body)) return body;
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength); // no copy
}

/** Accepts old-style NodeJS.ReadableStream too, so callers can pass any stream they have. */
export function toReadable(body: NodeJS.ReadableStream): Readable {
  return body instanceof Readable ? body : new Readable().wrap(body);
}

export function chunkToBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === "string") return Buffer.from(chunk, "utf8");
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError("put: stream yielded a non-binary chunk (object mode streams are not supported)");
}

export function emptyStream(): Readable {
  return Readable.from([]);
}

export function assertSizeOption(size: number | undefined): void {
  if (size !== undefined && (!Number.isSafeInteger(size) || size < 0)) {
    throw new TypeError(`put: size must be a non-negative integer, got ${size}`);
  }
}

export function sizeMismatch(key: string, expected: number, actual: number): Error {
  return new Error(`put ${key}: body has ${actual}${actual > expected ? "+" : ""} bytes, expected ${expected}`);
}

export function assertRange(offset: number, length: number): void {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`getRange: invalid offset ${offset}`);
  if (!Number.isSafeInteger(length) || length < 0) throw new RangeError(`getRange: invalid length ${length}`);
}

/** S3 presigned URLs live at most 7 days. */
export function assertExpiry(seconds: number): void {
  if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > 604_800) {
    throw new RangeError(`presign expiry must be an integer between 1 and 604800 seconds, got ${seconds}`);
  }
}

/**
 * `attachment` disposition with an ASCII fallback plus RFC 5987 `filename*` for the real name.
 * Control characters are dropped so a filename can never inject header lines.
 */
export function attachmentDisposition(filename: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = filename.replace(/[\u0000-\u001f\u007f]/g, "");
  const ascii = clean.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export function errnoCode(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "code" in err && typeof err.code === "string" ? err.code : undefined;
}
