/** Metadata of one stored object. */
export interface ObjectInfo {
  key: string;
  size: number;
  etag?: string;
  lastModified?: Date;
  contentType?: string;
}

export type PutBody = Buffer | Uint8Array | string | NodeJS.ReadableStream;

export interface PutOptions {
  /** Expected byte length; the put fails (and stores nothing) if the body has a different length. */
  size?: number;
  contentType?: string;
}

/** Thrown by `get`/`getRange` when the key does not exist. */
export class ObjectNotFoundError extends Error {
  readonly key: string;
  constructor(key: string, options?: { cause?: unknown }) {
    super(`object not found: ${key}`, options);
    this.name = "ObjectNotFoundError";
    this.key = key;
  }
}

export interface ObjectStore {
  readonly bucket: string;
  /** Creates the bucket if needed; idempotent and safe when several processes race. */
  ensureBucket(): Promise<void>;
  /** Streams `body` into `key`, replacing any previous object. Readers never see a partial object. */
  put(key: string, body: PutBody, opts?: PutOptions): Promise<ObjectInfo>;
  /** @throws ObjectNotFoundError */
  get(key: string): Promise<NodeJS.ReadableStream>;
  /**
   * Bytes [offset, offset + length), clamped to the end of the object (an offset at or past the
   * end yields an empty stream). @throws ObjectNotFoundError
   */
  getRange(key: string, offset: number, length: number): Promise<NodeJS.ReadableStream>;
  stat(key: string): Promise<ObjectInfo | null>;
  /** A missing key is not an error. */
  delete(key: string): Promise<void>;
  deleteMany(keys: string[]): Promise<void>;
  /** Every key starting with `prefix` (plain string prefix, like S3), at any depth, sorted by key bytes. */
  list(prefix: string): AsyncIterable<ObjectInfo>;
  /** `null` when the store cannot presign (local disk). `filename` → attachment content-disposition. */
  presignedGetUrl(key: string, expirySeconds: number, opts?: { filename?: string }): Promise<string | null>;
}

/** S3's limit; also keeps local paths well below PATH_MAX. */
const MAX_KEY_BYTES = 1024;

/**
 * Keys are `/`-separated relative paths. Besides the obvious traversal cases, `.` and empty
 * segments are rejected too: on disk `a/./b`, `a//b` and `a/` would alias other keys or
 * directories, and rejecting them everywhere keeps both implementations interchangeable.
 */
export function assertValidKey(key: string): void {
  if (typeof key !== "string" || key.length === 0) throw new TypeError("object key must be a non-empty string");
  checkChars(key, "object key");
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new TypeError(`object key longer than ${MAX_KEY_BYTES} bytes`);
  for (const segment of key.split("/")) {
    if (segment === "" || segment === "." || segment === "..") {
      throw new TypeError(`invalid object key ${JSON.stringify(key)}: empty, "." or ".." path segment`);
    }
  }
}

/**
 * A list prefix is a key with an optional unfinished last segment (`jobs/1` matches `jobs/12/x`,
 * `jobs/1/` only `jobs/1/...`); `""` lists the whole bucket.
 */
export function assertValidPrefix(prefix: string): void {
  if (typeof prefix !== "string") throw new TypeError("prefix must be a string");
  if (prefix === "") return;
  checkChars(prefix, "prefix");
  const segments = prefix.split("/");
  segments.pop(); // the partial last segment may be anything
  for (const segment of segments) {
    if (segment === "" || segment === "." || segment === "..") {
      throw new TypeError(`invalid prefix ${JSON.stringify(prefix)}: empty, "." or ".." path segment`);
    }
  }
}

function checkChars(value: string, what: string): void {
  if (value.startsWith("/")) throw new TypeError(`${what} must be relative: ${JSON.stringify(value)}`);
  if (value.includes("\\")) throw new TypeError(`${what} must not contain backslashes: ${JSON.stringify(value)}`);
  if (value.includes("\0")) throw new TypeError(`${what} must not contain NUL`);
}

/** S3 bucket naming rules; also guarantees the name is a single safe path segment on disk. */
export function assertValidBucketName(bucket: string): void {
  if (typeof bucket !== "string" || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes("..")) {
    throw new TypeError(`invalid bucket name ${JSON.stringify(bucket)}`);
  }
}

/** Sort order of S3 listings: unsigned UTF-8 bytes (differs from JS UTF-16 order above U+FFFF). */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
