import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { ObjectNotFoundError, type ObjectStore } from "@quarry/object-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crc32 } from "./crc32.ts";
import { openZipEntryFromStore, readZipDirectoryFromStore, storeRangeReader } from "./object-store-zip.ts";
import { InvalidZipError, readZipDirectory } from "./zip-directory.ts";
import { CorruptZipEntryError, findZipEntry, openZipEntry } from "./zip-entry.ts";
import { BIG_SIZE, createFixtures, fileBytesReader, STORES, unzipEntry, type ArchiveName, type Fixtures, type OpenStore } from "./zip-fixtures.test-helper.ts";

let fx: Fixtures;
beforeAll(async () => (fx = await createFixtures()));
afterAll(() => fx?.close());

const TAIL = 22 + 0xffff;
const key = (name: string) => `jobs/1/${name}.zip`;

/** The store, with every getRange recorded as [offset, length]. */
function recordingRanges(store: ObjectStore, ranges: [number, number][]): ObjectStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === "getRange") {
        return (k: string, offset: number, length: number) => {
          ranges.push([offset, length]);
          return target.getRange(k, offset, length);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe.each(STORES)("zip archives in $name", ({ open }) => {
  let s: OpenStore;
  beforeAll(async () => {
    s = await open();
    for (const [name, file] of Object.entries(fx.archives)) {
      await s.store.put(key(name), createReadStream(file), { size: (await stat(file)).size });
    }
  });
  afterAll(() => s?.close());

  it.each<ArchiveName>(["deflated", "stored", "zip64", "commented"])(
    "%s.zip: the directory matches the file's, and every file extracts as unzip -p does",
    async (name) => {
      const entries = await readZipDirectoryFromStore(s.store, key(name));
      expect(entries).toEqual(await readZipDirectory(fileBytesReader(fx.archives[name]), (await stat(fx.archives[name])).size));
      const files = entries.filter((e) => !e.isDirectory);
      expect(files.length).toBeGreaterThan(1);
      for (const entry of files) {
        const content = await buffer(await openZipEntryFromStore(s.store, key(name), entry));
        expect(content, entry.name).toEqual(await unzipEntry(fx.archives[name], entry.name));
      }
    },
  );

  it("reads the directory with one tail getRange, and an entry with two more", async () => {
    const ranges: [number, number][] = [];
    const store = recordingRanges(s.store, ranges);
    const size = (await stat(fx.archives.big)).size;
    const entries = await readZipDirectoryFromStore(store, key("big"));
    expect(ranges).toEqual([[size - TAIL, TAIL]]);

    const top = findZipEntry(entries, "top.txt")!;
    ranges.length = 0;
    expect((await buffer(await openZipEntryFromStore(store, key("big"), top))).toString()).toBe("hello\n");
    expect(ranges).toHaveLength(2);
    expect(ranges[0]).toEqual([top.localHeaderOffset, 30]);
    expect(ranges[1]![1]).toBe(top.compressedSize);
  });

  it("streams a > 16 MiB entry chunk by chunk with the recorded size and CRC-32", async () => {
    const big = findZipEntry(await readZipDirectoryFromStore(s.store, key("big")), "big.txt")!;
    expect(big.method).toBe(8);
    expect(big.uncompressedSize).toBe(BIG_SIZE);
    let chunks = 0;
    let total = 0;
    let crc = 0;
    for await (const chunk of await openZipEntryFromStore(s.store, key("big"), big)) {
      const bytes = chunk as Buffer;
      expect(bytes.equals(fx.bigFile.subarray(total, total + bytes.length))).toBe(true);
      chunks++;
      total += bytes.length;
      crc = crc32(bytes, crc);
    }
    expect(chunks).toBeGreaterThan(10);
    expect(total).toBe(BIG_SIZE);
    expect(crc).toBe(big.crc32);
  });

  it("delivers the first bytes before most of the compressed data has been fetched", async () => {
    const big = findZipEntry(await readZipDirectoryFromStore(s.store, key("big")), "big.txt")!;
    let fetched = 0;
    const stream = await openZipEntry(async (offset, length) => {
      const source = await s.store.getRange(key("big"), offset, length);
      // Counts what the store has delivered; ending early returns the generator, which destroys the source.
      return Readable.from(
        (async function* () {
          for await (const chunk of source) {
            fetched += (chunk as Buffer).length;
            yield chunk;
          }
        })(),
      );
    }, big);
    const iterator = stream[Symbol.asyncIterator]();
    expect(((await iterator.next()).value as Buffer).length).toBeGreaterThan(0);
    expect(fetched).toBeLessThan(big.compressedSize / 4);
    await iterator.return?.();
  });

  it("a flipped byte in the stored archive fails the entry's stream", async () => {
    const archive = Buffer.from(await readFile(fx.archives.stored));
    const entry = findZipEntry(await readZipDirectoryFromStore(s.store, key("stored")), "nested/deeper/leaf.txt")!;
    const at = archive.indexOf("a leaf line that repeats") + 1000; // stored: the content is in the archive as is
    archive[at] = archive[at]! ^ 0x01;
    await s.store.put(key("corrupt"), archive);
    const err = await buffer(await openZipEntryFromStore(s.store, key("corrupt"), entry)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CorruptZipEntryError);
    expect((err as Error).message).toMatch(/CRC-32/);
  });

  it("missing archives, missing entries, garbage and truncated objects", async () => {
    await expect(readZipDirectoryFromStore(s.store, key("missing"))).rejects.toBeInstanceOf(ObjectNotFoundError);
    const entries = await readZipDirectoryFromStore(s.store, key("deflated"));
    expect(findZipEntry(entries, "no/such/file.txt")).toBeUndefined();

    await s.store.put(key("garbage"), Buffer.from("no zip here ".repeat(10_000)));
    const whole = await readFile(fx.archives.big);
    await s.store.put(key("truncated"), whole.subarray(0, whole.length - 100));
    for (const name of ["garbage", "truncated"]) {
      await expect(readZipDirectoryFromStore(s.store, key(name)), name).rejects.toBeInstanceOf(InvalidZipError);
    }
    // storeRangeReader reports short reads past the end, so a stale size is caught too.
    const stale = await readZipDirectory(storeRangeReader(s.store, key("big")), whole.length + 1).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(InvalidZipError);
  });
});
