import { createHash } from "node:crypto";
import { Client, S3Error } from "minio";
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
  attachmentDisposition,
  chunkToBuffer,
  emptyStream,
  isBinaryBody,
  sizeMismatch,
  toBuffer,
  toReadable,
} from "./internal.ts";

export interface MinioObjectStoreOptions {
  endPoint: string;
  port: number;
  useSSL: boolean;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region?: string;
  pathStyle?: boolean;
  /**
   * Multipart part size in bytes (default 16 MiB, minimum 5 MiB). Bounds the memory one streaming
   * put holds; objects larger than this are uploaded in parts.
   */
  partSize?: number;
}

const MIN_PART_SIZE = 5 * 1024 * 1024; // S3 minimum for every part but the last
const DEFAULT_PART_SIZE = 16 * 1024 * 1024;
const MAX_PARTS = 10_000; // S3 limit
const LIST_PAGE_SIZE = 1000;

/**
 * Objects in an S3-compatible server (MinIO, S3, …) via the `minio` client.
 *
 * Streaming puts do their own multipart upload instead of `client.putObject(stream)`: with an
 * unknown size the client would pick ~500 MiB parts and buffer each in memory, and it resumes
 * any pending upload of the same key, which mixes concurrent writers. Here memory is bounded by
 * one part, and a failed upload is aborted.
 */
export class MinioObjectStore implements ObjectStore {
  readonly bucket: string;
  private readonly client: Client;
  private readonly region: string | undefined;
  private readonly partSize: number;

  constructor(opts: MinioObjectStoreOptions) {
    assertValidBucketName(opts.bucket);
    const partSize = opts.partSize ?? DEFAULT_PART_SIZE;
    if (!Number.isSafeInteger(partSize) || partSize < MIN_PART_SIZE) {
      throw new TypeError(`partSize must be an integer >= ${MIN_PART_SIZE}`);
    }
    this.bucket = opts.bucket;
    this.region = opts.region;
    this.partSize = partSize;
    this.client = new Client({
      endPoint: opts.endPoint,
      port: opts.port,
      useSSL: opts.useSSL,
      accessKey: opts.accessKey,
      secretKey: opts.secretKey,
      ...(opts.region !== undefined && { region: opts.region }),
      ...(opts.pathStyle !== undefined && { pathStyle: opts.pathStyle }),
    });
  }

  async ensureBucket(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket, this.region ?? "");
    } catch (err) {
      // Lost a creation race (MinIO says "owned by you"; S3/s3rver may say "already exists").
      // Re-check so that a bucket owned by someone else still fails loudly (HEAD → 403).
      const code = s3Code(err);
      if ((code === "BucketAlreadyOwnedByYou" || code === "BucketAlreadyExists") && (await this.client.bucketExists(this.bucket))) {
        return;
      }
      throw err;
    }
  }

  async put(key: string, body: PutBody, opts: PutOptions = {}): Promise<ObjectInfo> {
    assertValidKey(key);
    assertSizeOption(opts.size);
    const headers: Record<string, string> = {};
    if (opts.contentType !== undefined) headers["Content-Type"] = opts.contentType;

    const info = (size: number, etag: string): ObjectInfo => ({
      key,
      size,
      etag,
      ...(opts.contentType !== undefined && { contentType: opts.contentType }),
    });

    let source: AsyncIterable<unknown> | Iterable<unknown>;
    if (isBinaryBody(body)) {
      const buf = toBuffer(body);
      if (opts.size !== undefined && buf.length !== opts.size) throw sizeMismatch(key, opts.size, buf.length);
      if (buf.length <= this.partSize) {
        const res = await this.client.putObject(this.bucket, key, buf, buf.length, headers);
        return info(buf.length, res.etag);
      }
      source = slices(buf, this.partSize); // large buffers take the multipart path below, without copies
    } else {
      source = toReadable(body);
    }

    // With a known size, grow parts so that the object fits in MAX_PARTS.
    const partSize = opts.size === undefined ? this.partSize : Math.max(this.partSize, Math.ceil(opts.size / MAX_PARTS));
    let uploadId: string | undefined;
    const parts: { part: number; etag: string }[] = [];
    let total = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;

    const flushPart = async () => {
      const chunk = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      if (parts.length >= MAX_PARTS) throw new Error(`put ${key}: more than ${MAX_PARTS} parts; pass opts.size or raise partSize`);
      uploadId ??= await this.client.initiateNewMultipartUpload(this.bucket, key, headers);
      const part = parts.length + 1;
      const res = await this.client.uploadPart(
        {
          bucketName: this.bucket,
          objectName: key,
          uploadID: uploadId,
          partNumber: part,
          headers: { "Content-MD5": createHash("md5").update(chunk).digest("base64") },
        },
        chunk,
      );
      parts.push({ part, etag: res.etag });
    };

    try {
      // Awaiting uploads inside the loop pauses the source: at most ~one part is buffered.
      for await (const raw of source) {
        const buf = chunkToBuffer(raw);
        total += buf.length;
        if (opts.size !== undefined && total > opts.size) throw sizeMismatch(key, opts.size, total);
        pending.push(buf);
        pendingBytes += buf.length;
        if (pendingBytes >= partSize) await flushPart();
      }
      if (opts.size !== undefined && total !== opts.size) throw sizeMismatch(key, opts.size, total);

      if (uploadId === undefined) {
        // Fits in one part: a plain PUT is cheaper and yields a content-md5 etag.
        const whole = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
        const res = await this.client.putObject(this.bucket, key, whole, pendingBytes, headers);
        return info(total, res.etag);
      }
      if (pendingBytes > 0) await flushPart();
      const done = await this.client.completeMultipartUpload(this.bucket, key, uploadId, parts);
      return info(total, done.etag);
    } catch (err) {
      if (uploadId !== undefined) {
        // Best effort: otherwise parts linger until a lifecycle rule cleans them up.
        await this.client.abortMultipartUpload(this.bucket, key, uploadId).catch(() => {});
      }
      throw err;
    }
  }

  async get(key: string): Promise<NodeJS.ReadableStream> {
    assertValidKey(key);
    try {
      return await this.client.getObject(this.bucket, key);
    } catch (err) {
      throw mapNotFound(err, key);
    }
  }

  async getRange(key: string, offset: number, length: number): Promise<NodeJS.ReadableStream> {
    assertValidKey(key);
    assertRange(offset, length);
    if (length === 0) {
      // getPartialObject treats length 0 as "to the end"; still report a missing key.
      if ((await this.stat(key)) === null) throw new ObjectNotFoundError(key);
      return emptyStream();
    }
    try {
      return await this.client.getPartialObject(this.bucket, key, offset, length);
    } catch (err) {
      if (s3Code(err) === "InvalidRange") return emptyStream(); // offset at/after the end
      throw mapNotFound(err, key);
    }
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    assertValidKey(key);
    try {
      const st = await this.client.statObject(this.bucket, key);
      const info: ObjectInfo = { key, size: st.size, etag: st.etag, lastModified: st.lastModified };
      const contentType = headerValue(st.metaData, "content-type");
      if (contentType !== undefined) info.contentType = contentType;
      return info;
    } catch (err) {
      const code = s3Code(err);
      if (code === "NotFound" || code === "NoSuchKey") return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.removeObject(this.bucket, key); // S3 DELETE of a missing key is a 204
  }

  async deleteMany(keys: string[]): Promise<void> {
    for (const key of keys) assertValidKey(key);
    const unique = [...new Set(keys)];
    if (unique.length === 0) return;
    const results: unknown[] = await this.client.removeObjects(this.bucket, unique); // batches by 1000
    // minio-js returns the <Error> entries themselves despite its typings; accept both shapes.
    const failures = results
      .map((r) => (isRecord(r) && isRecord(r.Error) ? r.Error : r))
      .filter((e): e is Record<string, unknown> => isRecord(e) && e.Code !== undefined && e.Code !== "NoSuchKey");
    if (failures.length > 0) {
      const detail = failures
        .slice(0, 5)
        .map((f) => `${String(f.Key)}: ${String(f.Code)}`)
        .join(", ");
      throw new Error(`deleteMany: ${failures.length} key(s) could not be deleted (${detail})`);
    }
  }

  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    assertValidPrefix(prefix);
    let token = "";
    for (;;) {
      const page = await this.client.listObjectsV2Query(this.bucket, prefix, token, "", LIST_PAGE_SIZE, "");
      // S3/MinIO already return pages in key order; sorting each page is a no-op there and
      // normalizes servers that do not (s3rver lists in readdir order).
      const objects = page.objects.flatMap((o) => (o.name === undefined ? [] : [o])).sort((a, b) => compareKeys(a.name, b.name));
      for (const o of objects) {
        yield { key: o.name, size: Number(o.size), etag: o.etag, lastModified: o.lastModified };
      }
      if (!page.isTruncated || !page.nextContinuationToken) return;
      token = page.nextContinuationToken;
    }
  }

  async presignedGetUrl(key: string, expirySeconds: number, opts: { filename?: string } = {}): Promise<string | null> {
    assertValidKey(key);
    assertExpiry(expirySeconds); // minio-js would silently turn 0 into 7 days
    const respHeaders: Record<string, string> = {};
    if (opts.filename !== undefined) respHeaders["response-content-disposition"] = attachmentDisposition(opts.filename);
    return this.client.presignedGetObject(this.bucket, key, expirySeconds, respHeaders);
  }
}

function* slices(buf: Buffer, size: number): Generator<Buffer> {
  for (let off = 0; off < buf.length; off += size) yield buf.subarray(off, off + size);
}

function s3Code(err: unknown): string | undefined {
  return err instanceof S3Error ? err.code : undefined;
}

function mapNotFound(err: unknown, key: string): unknown {
  const code = s3Code(err);
  return code === "NoSuchKey" || code === "NotFound" ? new ObjectNotFoundError(key, { cause: err }) : err;
}

function headerValue(meta: Record<string, unknown>, name: string): string | undefined {
  for (const [k, v] of Object.entries(meta)) {
    if (k.toLowerCase() === name && typeof v === "string") return v;
  }
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}
