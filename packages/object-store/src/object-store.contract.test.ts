import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createObjectStore, LocalDiskObjectStore, MinioObjectStore, ObjectNotFoundError, type ObjectInfo, type ObjectStore } from "./index.ts";

const MiB = 1024 * 1024;
const PART_SIZE = 5 * MiB; // smallest allowed, so a "few MB" stream already goes multipart

interface Harness {
  name: string;
  canPresign: boolean;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  make(bucket: string): ObjectStore;
}

function localHarness(): Harness {
  let root = "";
  return {
    name: "local disk",
    canPresign: false,
    async setup() {
      root = await mkdtemp(path.join(tmpdir(), "quarry-object-store-"));
    },
    async teardown() {
      if (root) await rm(root, { recursive: true, force: true });
    },
    make: (bucket) => createObjectStore({ kind: "local", root, bucket }),
  };
}

function minioHarness(): Harness {
  let dir = "";
  let server: S3rver | undefined;
  let port = 0;
  return {
    name: "minio client against s3rver",
    canPresign: true,
    async setup() {
      dir = await mkdtemp(path.join(tmpdir(), "quarry-s3rver-"));
      server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: dir, resetOnClose: true });
      port = (await server.run()).port;
    },
    async teardown() {
      await server?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
    make: (bucket) =>
      new MinioObjectStore({
        endPoint: "127.0.0.1",
        port,
        useSSL: false,
        accessKey: "S3RVER",
        secretKey: "S3RVER",
        bucket,
        partSize: PART_SIZE,
      }),
  };
}

// ---- helpers ---------------------------------------------------------------------------------

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function collect(iter: AsyncIterable<ObjectInfo>): Promise<ObjectInfo[]> {
  const out: ObjectInfo[] = [];
  for await (const info of iter) out.push(info);
  return out;
}

const md5 = (buf: Buffer) => createHash("md5").update(buf).digest("hex");

/** Deterministic bytes (xorshift32), so a generated stream can be regenerated for comparison. */
function pseudoRandomBytes(size: number, seed: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    buf[i] = x & 0xff;
  }
  return buf;
}

/**
 * A stream of `size` bytes produced chunk by chunk (odd chunk sizes, so part boundaries never
 * line up with chunks). `failAfter` makes it error once that many bytes were emitted.
 */
function generatedStream(size: number, seed: number, failAfter?: number): Readable {
  return Readable.from(
    (function* () {
      let emitted = 0;
      let n = 0;
      while (emitted < size) {
        if (failAfter !== undefined && emitted >= failAfter) throw new Error("source failed midway");
        const len = Math.min(size - emitted, 64 * 1024 + ((n * 7919) % 50_000));
        yield pseudoRandomBytes(len, seed + n);
        emitted += len;
        n++;
      }
    })(),
  );
}

function generatedBytes(size: number, seed: number): Promise<Buffer> {
  return readAll(generatedStream(size, seed));
}

const INVALID_KEYS = ["../x", "/abs", "a/../b", "", "..", "a\\b", "a\0b", "a//b", "a/./b", "a/"];

// ---- the contract ----------------------------------------------------------------------------

describe.each([localHarness(), minioHarness()])("ObjectStore contract: $name", (h) => {
  let store: ObjectStore;

  beforeAll(async () => {
    await h.setup();
    store = h.make("contract");
    await store.ensureBucket();
  });

  afterAll(async () => {
    await h.teardown();
  });

  it("ensureBucket is idempotent, also when racing", async () => {
    await store.ensureBucket();
    await store.ensureBucket();
    const fresh = () => h.make("raced-bucket");
    await Promise.all([fresh().ensureBucket(), fresh().ensureBucket(), fresh().ensureBucket(), fresh().ensureBucket()]);
    await fresh().ensureBucket();
    await fresh().put("k", "v");
    expect((await readAll(await fresh().get("k"))).toString()).toBe("v");
  });

  it("put into a bucket that was never ensured fails", async () => {
    await expect(h.make("never-created").put("k", "v")).rejects.toThrow();
  });

  it("put Buffer then get returns the same bytes; etag is the content md5", async () => {
    const data = pseudoRandomBytes(100_000, 1);
    const info = await store.put("put/buffer.bin", data);
    expect(info).toMatchObject({ key: "put/buffer.bin", size: data.length, etag: md5(data) });
    expect((await readAll(await store.get("put/buffer.bin"))).equals(data)).toBe(true);
  });

  it("put a Buffer larger than one part (multipart for the MinIO store)", async () => {
    const data = pseudoRandomBytes(11 * MiB + 7, 12);
    const info = await store.put("put/large-buffer.bin", data);
    expect(info.size).toBe(data.length);
    expect((await readAll(await store.get("put/large-buffer.bin"))).equals(data)).toBe(true);
    expect((await store.stat("put/large-buffer.bin"))?.etag).toBe(info.etag);
  });

  it("put string stores its UTF-8 bytes", async () => {
    const text = "héllo wörld ✓ 🚀\n".repeat(100);
    const info = await store.put("put/string.txt", text);
    expect(info.size).toBe(Buffer.byteLength(text));
    expect((await readAll(await store.get("put/string.txt"))).toString("utf8")).toBe(text);
  });

  it("put Uint8Array view stores only the viewed bytes", async () => {
    const backing = pseudoRandomBytes(1000, 2);
    const view = new Uint8Array(backing.buffer, backing.byteOffset + 100, 500);
    await store.put("put/u8.bin", view);
    expect((await readAll(await store.get("put/u8.bin"))).equals(backing.subarray(100, 600))).toBe(true);
  });

  it("put empty body", async () => {
    expect((await store.put("put/empty", Buffer.alloc(0))).size).toBe(0);
    expect((await readAll(await store.get("put/empty"))).length).toBe(0);
    expect((await store.stat("put/empty"))?.size).toBe(0);
  });

  it("put stream of several MB (unknown size) then get returns the same bytes", async () => {
    const size = 12 * MiB + 12_345; // > 2 parts for the MinIO store
    const info = await store.put("put/stream.bin", generatedStream(size, 3));
    expect(info.size).toBe(size);
    const got = await readAll(await store.get("put/stream.bin"));
    expect(got.length).toBe(size);
    expect(got.equals(await generatedBytes(size, 3))).toBe(true);
    const st = await store.stat("put/stream.bin");
    expect(st?.size).toBe(size);
    expect(st?.etag).toBe(info.etag);
  });

  it("put stream with a declared size", async () => {
    const size = 6 * MiB + 1;
    const info = await store.put("put/sized.bin", generatedStream(size, 4), { size });
    expect(info.size).toBe(size);
    expect((await readAll(await store.get("put/sized.bin"))).equals(await generatedBytes(size, 4))).toBe(true);
  });

  it("a size mismatch rejects and stores nothing", async () => {
    await expect(store.put("put/mismatch-a", Buffer.from("abc"), { size: 4 })).rejects.toThrow(/bytes/);
    await expect(store.put("put/mismatch-b", generatedStream(1000, 5), { size: 999 })).rejects.toThrow(/bytes/);
    await expect(store.put("put/mismatch-c", generatedStream(1000, 5), { size: 1001 })).rejects.toThrow(/bytes/);
    for (const k of ["put/mismatch-a", "put/mismatch-b", "put/mismatch-c"]) expect(await store.stat(k)).toBeNull();
  });

  it("stat reports size, etag, contentType, lastModified; null for missing keys and bare prefixes", async () => {
    const data = Buffer.from('{"a":1}');
    const info = await store.put("stat/obj.json", data, { contentType: "application/json" });
    const st = await store.stat("stat/obj.json");
    expect(st).toMatchObject({ key: "stat/obj.json", size: data.length, etag: md5(data), contentType: "application/json" });
    expect(st?.etag).toBe(info.etag);
    expect(st?.lastModified).toBeInstanceOf(Date);
    expect(await store.stat("stat/missing")).toBeNull();
    expect(await store.stat("stat")).toBeNull(); // only a prefix of stat/obj.json
  });

  it("get/getRange of a missing key throw ObjectNotFoundError", async () => {
    const err = await store.get("nope/missing").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ObjectNotFoundError);
    expect((err as ObjectNotFoundError).key).toBe("nope/missing");
    await expect(store.getRange("nope/missing", 0, 10)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(store.getRange("nope/missing", 0, 0)).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it("getRange returns the exact slice, clamped at the end", async () => {
    const data = pseudoRandomBytes(300_000, 6);
    await store.put("range/data.bin", data);
    const range = async (offset: number, length: number) => readAll(await store.getRange("range/data.bin", offset, length));
    expect((await range(0, 10)).equals(data.subarray(0, 10))).toBe(true);
    expect((await range(123_456, 54_321)).equals(data.subarray(123_456, 123_456 + 54_321))).toBe(true);
    expect((await range(data.length - 1, 1)).equals(data.subarray(data.length - 1))).toBe(true);
    expect((await range(data.length - 100, 1000)).equals(data.subarray(data.length - 100))).toBe(true);
    expect((await range(data.length, 10)).length).toBe(0);
    expect((await range(5, 0)).length).toBe(0);
    await expect(store.getRange("range/data.bin", -1, 5)).rejects.toBeInstanceOf(RangeError);
    await expect(store.getRange("range/data.bin", 0, 1.5)).rejects.toBeInstanceOf(RangeError);
  });

  it("list yields every key under a string prefix, recursively, sorted by key", async () => {
    const keys = [
      "list/a/b/c/deep.txt",
      "list/a/b/x",
      "list/a/z",
      "list/a.txt", // '.' sorts before '/', so before everything in list/a/
      "list/a-b",
      "list/ab/1",
      "list/b",
      "listing/not-under-list-slash",
      "other/list/a",
    ];
    for (const k of [...keys].reverse()) await store.put(k, `content of ${k}`);

    expect((await collect(store.list("list/"))).map((o) => o.key)).toEqual([
      "list/a-b",
      "list/a.txt",
      "list/a/b/c/deep.txt",
      "list/a/b/x",
      "list/a/z",
      "list/ab/1",
      "list/b",
    ]);
    expect((await collect(store.list("list/a/"))).map((o) => o.key)).toEqual(["list/a/b/c/deep.txt", "list/a/b/x", "list/a/z"]);
    // Plain string prefix, as in S3: "list/a" also matches "list/a-b", "list/a.txt" and "list/ab/1".
    expect((await collect(store.list("list/a"))).map((o) => o.key)).toEqual([
      "list/a-b",
      "list/a.txt",
      "list/a/b/c/deep.txt",
      "list/a/b/x",
      "list/a/z",
      "list/ab/1",
    ]);
    expect((await collect(store.list("list/a/b/c/deep.txt"))).map((o) => o.key)).toEqual(["list/a/b/c/deep.txt"]);
    expect(await collect(store.list("list/nothing/"))).toEqual([]);

    const [entry] = await collect(store.list("list/a/z"));
    const body = Buffer.from("content of list/a/z");
    expect(entry).toMatchObject({ key: "list/a/z", size: body.length, etag: md5(body) });
    expect(entry?.lastModified).toBeInstanceOf(Date);
  });

  it("list of a whole bucket shows exactly the stored keys (no temp or metadata files)", async () => {
    const s = h.make("listing-bucket");
    await s.ensureBucket();
    expect(await collect(s.list(""))).toEqual([]);
    await s.put("x/1", "1");
    await s.put("y", generatedStream(10_000, 7));
    await s.put("x/2", "2", { contentType: "text/plain" });
    expect((await collect(s.list(""))).map((o) => o.key)).toEqual(["x/1", "x/2", "y"]);
  });

  it("delete removes an object; missing keys and bare prefixes are fine", async () => {
    await store.put("del/one", "1");
    await store.put("del/dir/child", "c");
    await store.delete("del/one");
    expect(await store.stat("del/one")).toBeNull();
    await expect(store.get("del/one")).rejects.toBeInstanceOf(ObjectNotFoundError);
    await store.delete("del/one");
    await store.delete("del/never-existed/deeply");
    await store.delete("del/dir"); // not an object, only a prefix
    expect((await store.stat("del/dir/child"))?.size).toBe(1);
    await store.delete("del/dir/child");
    expect(await collect(store.list("del/"))).toEqual([]);
    // Deleting the last key under a prefix must not break later writes there.
    await store.put("del/dir/again", "a");
    expect((await readAll(await store.get("del/dir/again"))).toString()).toBe("a");
  });

  it("deleteMany removes all given keys, tolerating missing ones and duplicates", async () => {
    const keys = ["many/a", "many/b/c", "many/d"];
    for (const k of keys) await store.put(k, k);
    await store.put("many/keep", "keep");
    await store.deleteMany([...keys, "many/missing", "many/a"]);
    expect((await collect(store.list("many/"))).map((o) => o.key)).toEqual(["many/keep"]);
    await store.deleteMany([]);
    await store.deleteMany(["many/missing"]);
  });

  it("invalid keys are rejected with TypeError by every operation", async () => {
    for (const key of INVALID_KEYS) {
      await expect(store.put(key, "x"), `put ${JSON.stringify(key)}`).rejects.toBeInstanceOf(TypeError);
      await expect(store.get(key)).rejects.toBeInstanceOf(TypeError);
      await expect(store.getRange(key, 0, 1)).rejects.toBeInstanceOf(TypeError);
      await expect(store.stat(key)).rejects.toBeInstanceOf(TypeError);
      await expect(store.delete(key)).rejects.toBeInstanceOf(TypeError);
      await expect(store.presignedGetUrl(key, 60)).rejects.toBeInstanceOf(TypeError);
    }
    await store.put("valid/keep", "keep");
    await expect(store.deleteMany(["valid/keep", "../x"])).rejects.toBeInstanceOf(TypeError);
    expect(await store.stat("valid/keep")).not.toBeNull(); // validated before deleting anything
    for (const prefix of ["../", "/abs", "a/../", "a\\", "a//"]) {
      await expect(collect(store.list(prefix))).rejects.toBeInstanceOf(TypeError);
    }
  });

  it("overwrite replaces the content entirely", async () => {
    await store.put("over/k", pseudoRandomBytes(50_000, 8), { contentType: "application/octet-stream" });
    const second = Buffer.from("short");
    const info = await store.put("over/k", second, { contentType: "text/plain" });
    expect(info.etag).toBe(md5(second));
    expect((await readAll(await store.get("over/k"))).equals(second)).toBe(true);
    expect(await store.stat("over/k")).toMatchObject({ size: second.length, etag: md5(second), contentType: "text/plain" });
  });

  it("an object is invisible until its put completes", async () => {
    const source = new PassThrough();
    const putting = store.put("atomic/k", source);
    source.write(pseudoRandomBytes(100_000, 9));
    while (source.readableLength > 0) await new Promise((r) => setTimeout(r, 5)); // consumed by put
    expect(await store.stat("atomic/k")).toBeNull();
    expect(await collect(store.list("atomic/"))).toEqual([]);
    source.end(Buffer.from("tail"));
    expect((await putting).size).toBe(100_004);
    expect((await store.stat("atomic/k"))?.size).toBe(100_004);
  });

  it("a put whose stream fails midway keeps the previous object and creates nothing new", async () => {
    await store.put("fail/existing", "old content");
    // 6 MiB > one part: the MinIO store has already started a multipart upload when it fails.
    await expect(store.put("fail/existing", generatedStream(8 * MiB, 10, 6 * MiB))).rejects.toThrow(/midway/);
    await expect(store.put("fail/new", generatedStream(8 * MiB, 10, 6 * MiB))).rejects.toThrow(/midway/);
    expect((await readAll(await store.get("fail/existing"))).toString()).toBe("old content");
    expect(await store.stat("fail/new")).toBeNull();
    expect((await collect(store.list("fail/"))).map((o) => o.key)).toEqual(["fail/existing"]);
  });

  it("presignedGetUrl: null without presigning support, else a downloadable signed URL", async () => {
    const data = pseudoRandomBytes(70_000, 11);
    await store.put("presign/report.bin", data);
    for (const bad of [0, -1, 1.5, 604_801]) {
      await expect(store.presignedGetUrl("presign/report.bin", bad)).rejects.toBeInstanceOf(RangeError);
    }
    const url = await store.presignedGetUrl("presign/report.bin", 600);
    if (!h.canPresign) {
      expect(url).toBeNull();
      expect(await store.presignedGetUrl("presign/report.bin", 600, { filename: "x.bin" })).toBeNull();
      return;
    }
    expect(url).toContain("X-Amz-Signature=");
    const res = await fetch(url!);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);

    const named = await store.presignedGetUrl("presign/report.bin", 600, { filename: 'résumé "v2".bin' });
    expect(named).toContain("X-Amz-Signature=");
    expect(named).toContain("response-content-disposition=");
    const res2 = await fetch(named!);
    expect(res2.status).toBe(200);
    const disposition = res2.headers.get("content-disposition") ?? "";
    expect(disposition).toMatch(/^attachment; filename="r_sum_ _v2_\.bin"; /);
    expect(disposition).toContain("filename*=UTF-8''r%C3%A9sum%C3%A9%20%22v2%22.bin");
    expect(Buffer.from(await res2.arrayBuffer()).equals(data)).toBe(true);
  });
});

// ---- local-disk specifics --------------------------------------------------------------------

describe("LocalDiskObjectStore", () => {
  let root = "";
  let store: LocalDiskObjectStore;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "quarry-object-store-local-"));
    store = new LocalDiskObjectStore({ root, bucket: "bkt" });
    await store.ensureBucket();
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("a put whose input stream errors midway leaves no object and no temp file behind", async () => {
    await expect(store.put("jobs/1/artifacts.zip", generatedStream(3 * MiB, 1, MiB))).rejects.toThrow(/midway/);
    expect(await store.stat("jobs/1/artifacts.zip")).toBeNull();
    await expect(store.get("jobs/1/artifacts.zip")).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await readdir(path.join(root, ".tmp"))).toEqual([]);
    expect(await collect(store.list(""))).toEqual([]);
  });

  // Not in the contract suite: S3/MinIO guarantee this server-side, but s3rver writes PUT bodies
  // straight into the final file, so concurrent PUTs of one key interleave there.
  it("concurrent puts of one key leave exactly one of the complete versions", async () => {
    const versions = [0, 1, 2, 3].map((i) => pseudoRandomBytes(200_000 + i, 20 + i));
    await Promise.all(versions.map((v, i) => store.put("race/k", i % 2 ? v : Readable.from([v]))));
    const got = await readAll(await store.get("race/k"));
    expect(versions.some((v) => v.equals(got))).toBe(true);
    expect(await store.stat("race/k")).toMatchObject({ size: got.length, etag: md5(got) });
  });

  it("stores objects as plain files at <root>/<bucket>/<key>", async () => {
    await store.put("plain/file.txt", "hello");
    expect(await readdir(path.join(root, "bkt", "plain"))).toEqual(["file.txt"]);
  });

  it("recomputes the etag when the file was changed behind its back", async () => {
    await store.put("stale/k", "original");
    await writeFile(path.join(root, "bkt", "stale", "k"), "edited by hand"); // same inode, new size
    expect(await store.stat("stale/k")).toMatchObject({ size: 14, etag: md5(Buffer.from("edited by hand")) });
  });

  it("rejects a key that would need an existing object to be a directory", async () => {
    await store.put("conflict/a", "file");
    await expect(store.put("conflict/a/b", "x")).rejects.toThrow(/conflicts/);
    expect((await readAll(await store.get("conflict/a"))).toString()).toBe("file");
  });

  it("rejects invalid bucket names", () => {
    for (const bucket of ["", ".", "..", ".tmp", "a/b", "Upper", "x"]) {
      expect(() => new LocalDiskObjectStore({ root, bucket })).toThrow(TypeError);
    }
  });
});
