import { once } from "node:events";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidZipError, type ZipEntry } from "./zip-directory.ts";
import {
  CorruptZipEntryError,
  findZipEntry,
  InvalidArtifactPathError,
  normalizeArtifactPath,
  openZipEntry,
  UnsupportedZipEntryError,
  UnsupportedZipMethodError,
  type ReadStream,
} from "./zip-entry.ts";
import {
  createFixtures,
  directoryOf,
  fileBytesReader,
  fileContent,
  fileStreamReader,
  unzipEntry,
  UTF8_FILE,
  type Fixtures,
} from "./zip-fixtures.test-helper.ts";

let fx: Fixtures;
let deflated: ZipEntry[];
let stored: ZipEntry[];
beforeAll(async () => {
  fx = await createFixtures();
  deflated = await directoryOf(fx.archives.deflated);
  stored = await directoryOf(fx.archives.stored);
});
afterAll(() => fx?.close());

function named(entries: ZipEntry[], name: string): ZipEntry {
  const entry = entries.find((e) => e.name === name);
  if (!entry) throw new Error(`no entry ${name}`);
  return entry;
}

/** The stream's error once it is consumed (it must fail). */
async function failureOf(stream: Readable): Promise<Error> {
  const err = await buffer(stream).then(
    () => undefined,
    (e: Error) => e,
  );
  if (!err) throw new Error("the entry stream ended without an error");
  return err;
}

/** A copy of `file` with the byte at `offset` inverted. */
async function withFlippedByte(file: string, offset: number): Promise<string> {
  const bytes = Buffer.from(await readFile(file));
  bytes[offset] = bytes[offset]! ^ 0xff;
  const copy = path.join(fx.dir, `flipped-${offset}.zip`);
  await writeFile(copy, bytes);
  return copy;
}

/** Where the entry's compressed bytes start, from its local header. */
async function dataOffset(file: string, entry: ZipEntry): Promise<number> {
  const header = await fileBytesReader(file)(entry.localHeaderOffset, 30);
  return entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
}

describe("openZipEntry", () => {
  it("starts at the local header's own name and extra lengths, which differ from the central ones", async () => {
    const entry = named(deflated, "nested/deeper/leaf.txt");
    const header = await fileBytesReader(fx.archives.deflated)(entry.localHeaderOffset, 30);
    const centralExtraLength = 24; // zip's UT (modification time only) and ux fields
    expect(header.readUInt16LE(28)).not.toBe(centralExtraLength); // the local UT field also has atime
    const content = await buffer(await openZipEntry(fileStreamReader(fx.archives.deflated), entry));
    expect(content).toEqual(fileContent("nested/deeper/leaf.txt"));
    expect(content).toEqual(await unzipEntry(fx.archives.deflated, entry.name));
  });

  it("an empty file and a directory give empty streams", async () => {
    for (const name of ["empty.txt", "nested/"]) {
      expect(await buffer(await openZipEntry(fileStreamReader(fx.archives.deflated), named(deflated, name)))).toEqual(Buffer.alloc(0));
    }
  });

  it("fails the stream when the data does not match the recorded CRC-32 or size", async () => {
    const read = fileStreamReader(fx.archives.deflated);
    for (const entry of [named(deflated, "nested/deeper/leaf.txt"), named(deflated, "nested/random.bin")]) {
      const wrongCrc = await failureOf(await openZipEntry(read, { ...entry, crc32: entry.crc32 ^ 1 }));
      expect(wrongCrc).toBeInstanceOf(CorruptZipEntryError);
      expect(wrongCrc.message).toMatch(/CRC-32 [0-9a-f]{8} does not match the recorded/);
      const longer = await failureOf(await openZipEntry(read, { ...entry, uncompressedSize: entry.uncompressedSize - 1 }));
      expect(longer.message).toMatch(/more than the recorded/);
      const shorter = await failureOf(await openZipEntry(read, { ...entry, uncompressedSize: entry.uncompressedSize + 1 }));
      expect(shorter.message).toMatch(/bytes, the archive records/);
    }
  });

  it("detects a flipped byte inside the compressed data", async () => {
    for (const [archive, entries, name] of [
      [fx.archives.stored, () => stored, "nested/deeper/leaf.txt"],
      [fx.archives.deflated, () => deflated, "nested/deeper/leaf.txt"],
      [fx.archives.deflated, () => deflated, "nested/random.bin"],
    ] as const) {
      const entry = named(entries(), name);
      const corrupt = await withFlippedByte(archive, (await dataOffset(archive, entry)) + Math.floor(entry.compressedSize / 2));
      const err = await failureOf(await openZipEntry(fileStreamReader(corrupt), entry));
      expect(err, `${archive} ${name}`).toBeInstanceOf(CorruptZipEntryError);
      await expect(unzipEntry(corrupt, name)).rejects.toThrow(); // unzip agrees the entry is bad
    }
  });

  it("bad deflate data is a CorruptZipEntryError wrapping zlib's error", async () => {
    const entry = named(deflated, "nested/deeper/leaf.txt");
    const corrupt = await withFlippedByte(fx.archives.deflated, await dataOffset(fx.archives.deflated, entry));
    const err = await failureOf(await openZipEntry(fileStreamReader(corrupt), entry));
    expect(err).toBeInstanceOf(CorruptZipEntryError);
    expect((err.cause as NodeJS.ErrnoException).code).toMatch(/^Z_/);
  });

  it("detects compressed data cut short", async () => {
    const whole = await readFile(fx.archives.deflated);
    for (const name of ["nested/deeper/leaf.txt", "nested/random.bin"]) {
      const entry = named(deflated, name);
      const cut = (await dataOffset(fx.archives.deflated, entry)) + Math.floor(entry.compressedSize / 2);
      const truncated = path.join(fx.dir, "cut.zip");
      await writeFile(truncated, whole.subarray(0, cut));
      const err = await failureOf(await openZipEntry(fileStreamReader(truncated), entry));
      expect(err, name).toBeInstanceOf(CorruptZipEntryError);
    }
  });

  it("refuses other methods and encryption before reading anything", async () => {
    const reads: number[] = [];
    const read: ReadStream = (offset, length) => {
      reads.push(offset);
      return fileStreamReader(fx.archives.deflated)(offset, length);
    };
    const bzip2 = { ...named(deflated, "top.txt"), method: 12 };
    const err = await openZipEntry(read, bzip2).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsupportedZipMethodError);
    expect(err).toMatchObject({ method: 12, message: "top.txt: compression method 12 is not supported (only stored and deflated)" });

    const [encrypted] = await directoryOf(fx.archives.encrypted);
    expect(encrypted?.encrypted).toBe(true);
    await expect(openZipEntry(read, encrypted!)).rejects.toThrow(UnsupportedZipEntryError);
    await expect(openZipEntry(read, encrypted!)).rejects.toThrow(/encrypted/);
    expect(reads).toEqual([]);
  });

  it("refuses an entry whose local header is not where the directory says", async () => {
    const entry = named(deflated, "top.txt");
    const err = await openZipEntry(fileStreamReader(fx.archives.deflated), { ...entry, localHeaderOffset: entry.localHeaderOffset + 1 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InvalidZipError);
    expect((err as Error).message).toMatch(/no local file header/);
  });

  it("destroying the entry stream early releases the underlying read", async () => {
    let source: NodeJS.ReadableStream | undefined;
    const read: ReadStream = async (offset, length) => (source = await fileStreamReader(fx.archives.big)(offset, length));
    const [big] = await directoryOf(fx.archives.big);
    const stream = await openZipEntry(read, big!);
    await once(stream, "readable");
    expect((stream.read() as Buffer).length).toBeGreaterThan(0);
    expect((source as Readable).destroyed).toBe(false);
    // pipeline destroys the source with a premature-close error: wait for "close", not once()'s rejection.
    const closed = new Promise((resolve) => (source as Readable).on("close", resolve));
    stream.destroy();
    await closed;
    expect((source as Readable).destroyed).toBe(true);
  });
});

describe("findZipEntry", () => {
  it("finds files by GitLab's normalised artifact path", () => {
    const leaf = named(deflated, "nested/deeper/leaf.txt");
    for (const request of ["nested/deeper/leaf.txt", "/nested/deeper/leaf.txt", "./nested/./deeper/leaf.txt", "nested//deeper/leaf.txt"]) {
      expect(findZipEntry(deflated, request), request).toBe(leaf);
    }
    expect(findZipEntry(deflated, "top.txt")).toBe(named(deflated, "top.txt"));
    expect(findZipEntry(deflated, `/${UTF8_FILE}`)).toBe(named(deflated, UTF8_FILE));
  });

  it("directories and missing paths find nothing", () => {
    for (const request of ["nested", "nested/", "nested/deeper/.", "missing.txt", "top.txt/", "TOP.TXT"]) {
      expect(findZipEntry(deflated, request), request).toBeUndefined();
    }
    // A directory entry known only from its Unix mode (no trailing slash) is not a file either.
    const dirWithoutSlash = { ...named(deflated, "top.txt"), isDirectory: true };
    expect(findZipEntry([dirWithoutSlash], "top.txt")).toBeUndefined();
  });

  it("takes the first of duplicate names, as gitlab-zip-cat does", () => {
    const top = named(deflated, "top.txt");
    const duplicate = { ...top, localHeaderOffset: top.localHeaderOffset + 100 };
    expect(findZipEntry([top, duplicate], "top.txt")).toBe(top);
  });

  it("rejects paths that climb out, contain NUL or name nothing", () => {
    for (const request of ["../top.txt", "nested/../top.txt", "nested/..", "a\0b", "", "/", "./", "//."]) {
      expect(() => findZipEntry(deflated, request), JSON.stringify(request)).toThrow(InvalidArtifactPathError);
    }
  });

  it("normalizeArtifactPath keeps a trailing slash and nothing else of the syntax", () => {
    expect(normalizeArtifactPath("/a/./b//c")).toBe("a/b/c");
    expect(normalizeArtifactPath("a/b/")).toBe("a/b/");
    expect(normalizeArtifactPath("./a/.")).toBe("a/");
    expect(normalizeArtifactPath("...")).toBe("..."); // only ".." exactly is a parent reference
  });
});
