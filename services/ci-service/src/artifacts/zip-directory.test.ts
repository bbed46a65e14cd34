import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crc32 } from "./crc32.ts";
import { InvalidZipError, readZipDirectory } from "./zip-directory.ts";
import {
  createFixtures,
  directoryOf,
  fileBytesReader,
  fileMode,
  MTIME,
  run,
  TREE_ENTRY_NAMES,
  unzipEntry,
  UTF8_FILE,
  zipinfo,
  type ArchiveName,
  type Fixtures,
} from "./zip-fixtures.test-helper.ts";

let fx: Fixtures;
beforeAll(async () => (fx = await createFixtures()));
afterAll(() => fx?.close());

async function rejectionOf(file: string, size?: number): Promise<unknown> {
  return readZipDirectory(fileBytesReader(file), size ?? (await stat(file)).size).catch((err: unknown) => err);
}

const EOCD_TAIL = 22 + 0xffff;

describe("readZipDirectory", () => {
  it.each<ArchiveName>(["deflated", "stored", "zip64", "big", "commented", "encrypted"])("%s.zip: every entry as zipinfo reports it", async (name) => {
    const archive = fx.archives[name];
    const expected = (await zipinfo(archive)).entries;
    const entries = await directoryOf(archive);
    expect(
      entries.map((e) => ({
        name: e.name,
        localHeaderOffset: e.localHeaderOffset,
        method: e.method,
        crc32: e.crc32,
        compressedSize: e.compressedSize,
        uncompressedSize: e.uncompressedSize,
        mode: e.mode,
        modified: e.modified,
        comment: e.comment,
      })),
    ).toEqual(expected);
    expect(entries.every((e) => e.madeBy === 3)).toBe(true); // zip on Linux
    expect(entries.map((e) => e.encrypted)).toEqual(entries.map(() => name === "encrypted"));
  });

  it("names, directories, modes and times of a tree zipped with zip -r", async () => {
    const entries = await directoryOf(fx.archives.deflated);
    expect(entries.map((e) => e.name).sort()).toEqual([...TREE_ENTRY_NAMES].sort());
    for (const entry of entries) {
      const dir = entry.name.endsWith("/");
      expect(entry.isDirectory, entry.name).toBe(dir);
      expect(entry.mode, entry.name).toBe((dir ? 0o040000 : 0o100000) | fileMode(entry.name.replace(/\/$/, "")));
      expect(entry.modified).toEqual(MTIME);
    }
    // Both methods in one archive: zip stores what deflate cannot shrink.
    const method = (n: string) => entries.find((e) => e.name === n)?.method;
    expect([method("nested/deeper/leaf.txt"), method("nested/random.bin"), method("empty.txt")]).toEqual([8, 0, 0]);
  });

  it("decodes an unflagged UTF-8 name (zip 3.0 stores the locale's bytes) and keeps the stored bytes", async () => {
    const entry = (await directoryOf(fx.archives.deflated)).find((e) => e.name === UTF8_FILE);
    expect(entry?.nameBytes).toEqual(Buffer.from(UTF8_FILE));
  });

  it("decodes names by flag bit 11, else by a matching Unicode Path field, else as UTF-8, else as CP437", async () => {
    const archive = await readFile(fx.archives.stored);
    const cdAt = archive.indexOf("PK\x01\x02", 0, "latin1");
    expect(archive.toString("latin1", cdAt + 46, cdAt + 53)).toBe("top.txt");
    expect(archive.readUInt16LE(cdAt + 30)).toBe(24); // zip's UT and ux fields, replaced below
    const unicodePath = (name: string, storedName: Buffer) => {
      const field = Buffer.alloc(24);
      field.writeUInt16LE(0x7075, 0);
      field.writeUInt16LE(20, 2);
      field.writeUInt8(1, 4);
      field.writeUInt32LE(crc32(storedName), 5);
      Buffer.from(name).copy(field, 9); // 15 bytes of UTF-8
      return field;
    };
    const cp437 = Buffer.from("t\x82p.txt", "latin1"); // 0x82 is é in CP437
    const variants: { stored: Buffer; flag: number; extra?: Buffer; name: string }[] = [
      { stored: cp437, flag: 0, name: "tép.txt" },
      { stored: Buffer.from("t\xe9p.txt", "latin1"), flag: 0, name: "tΘp.txt" }, // CP437, not latin1
      { stored: Buffer.from("t\xc3\xa9p.tx", "latin1"), flag: 0x800, name: "tép.tx" },
      { stored: cp437, flag: 0, extra: unicodePath("tép-unicod.txt", cp437), name: "tép-unicod.txt" },
      // A Unicode Path field for another name is stale (the name was changed without it): ignored.
      { stored: cp437, flag: 0, extra: unicodePath("tép-unicod.txt", Buffer.from("top.txt")), name: "tép.txt" },
    ];
    for (const { stored, flag, extra, name } of variants) {
      const copy = Buffer.from(archive);
      stored.copy(copy, cdAt + 46);
      extra?.copy(copy, cdAt + 53);
      copy.writeUInt16LE(copy.readUInt16LE(cdAt + 8) | flag, cdAt + 8);
      const file = path.join(fx.dir, "renamed.zip");
      await writeFile(file, copy);
      const [entry] = await directoryOf(file);
      expect(entry?.name).toBe(name);
      expect(entry?.nameBytes).toEqual(stored);
    }
  });

  it("finds the end record behind an archive comment, even one that contains a fake signature", async () => {
    const entries = await directoryOf(fx.archives.commented);
    expect(entries.map((e) => [e.name, e.comment])).toEqual([
      ["top.txt", "a <comment> & more"],
      ["script.sh", "second"],
    ]);
    // A comment holding "PK\5\6" whose would-be comment length runs past the end. unzip and
    // Python's zipfile take the last signature and fail here; the record is the earlier one.
    const archive = await readFile(fx.archives.stored);
    const comment = Buffer.from("see PK\x05\x06 in this comment, with enough text after it", "latin1");
    const withComment = Buffer.concat([archive, comment]);
    withComment.writeUInt16LE(comment.length, archive.length - 2);
    const file = path.join(fx.dir, "fake-signature.zip");
    await writeFile(file, withComment);
    expect((await directoryOf(file)).map((e) => e.name)).toEqual((await directoryOf(fx.archives.stored)).map((e) => e.name));
  });

  it("an empty archive has no entries", async () => {
    const file = path.join(fx.dir, "empty.zip");
    await writeFile(file, Buffer.concat([Buffer.from("PK\x05\x06", "latin1"), Buffer.alloc(18)]));
    expect(await directoryOf(file)).toEqual([]);
  });

  it("reads only the archive's tail: one read when the central directory fits in it", async () => {
    const reads: [number, number][] = [];
    const size = (await stat(fx.archives.big)).size;
    expect(size).toBeGreaterThan(8 * 1024 * 1024);
    const entries = await directoryOf(fx.archives.big, reads);
    expect(entries.map((e) => e.name)).toEqual(["big.txt", "top.txt"]);
    expect(reads).toEqual([[size - EOCD_TAIL, EOCD_TAIL]]);
  });

  it("reads the tail, then exactly the central directory when it is larger than the tail", async () => {
    const tree = path.join(fx.dir, "many");
    const names = Array.from({ length: 1500 }, (_, i) => `many/a-rather-long-file-name-to-grow-the-directory-${i}.txt`);
    await mkdir(tree);
    for (const name of names) await writeFile(path.join(fx.dir, name), name);
    const archive = path.join(fx.dir, "many.zip");
    await run("zip", ["-q", "-r", archive, "many"], fx.dir);
    const { centralDirectoryOffset } = await zipinfo(archive);
    const size = (await stat(archive)).size;
    const reads: [number, number][] = [];
    const entries = await directoryOf(archive, reads);
    expect(entries).toHaveLength(1501);
    const eocdOffset = size - 22;
    expect(eocdOffset - centralDirectoryOffset).toBeGreaterThan(EOCD_TAIL);
    expect(reads).toEqual([
      [size - EOCD_TAIL, EOCD_TAIL],
      [centralDirectoryOffset, eocdOffset - centralDirectoryOffset],
    ]);
  });

  it("reads ZIP64 sizes and offsets from the extra field (hand-built archive, checked with unzip)", async () => {
    const files: [string, Buffer][] = [
      ["first.txt", Buffer.from("first\n")],
      ["second/entry.bin", Buffer.from("second entry, at an offset only the ZIP64 field gives\n")],
    ];
    const file = path.join(fx.dir, "handmade-zip64.zip");
    await writeFile(file, handmadeZip(files, true));
    for (const [name, content] of files) expect(await unzipEntry(file, name)).toEqual(content);
    const entries = await directoryOf(file);
    expect(entries.map((e) => [e.name, e.compressedSize, e.uncompressedSize, e.crc32, e.localHeaderOffset])).toEqual([
      ["first.txt", 6, 6, crc32(files[0]![1]), 0],
      ["second/entry.bin", files[1]![1].length, files[1]![1].length, crc32(files[1]![1]), 30 + 9 + 20 + 6],
    ]);
    expect(entries[0]?.modified).toEqual(MTIME);
  });

  it("takes a count of 65535 at face value when there are no ZIP64 records, and a count that wrapped past it", async () => {
    for (const count of [0xffff, 0x10000 + 3]) {
      const files = Array.from({ length: count }, (_, i): [string, Buffer] => [`f${i}`, Buffer.alloc(0)]);
      const file = path.join(fx.dir, `count-${count}.zip`);
      await writeFile(file, handmadeZip(files, false));
      const listed = (await run("zipinfo", ["-1", file], fx.dir)).toString().split("\n").filter(Boolean);
      expect(listed).toHaveLength(count);
      const entries = await directoryOf(file);
      expect(entries).toHaveLength(count);
      expect(entries.at(-1)?.name).toBe(`f${count - 1}`);
    }
  });

  it("rejects garbage, truncated archives and sizes that do not match the bytes", async () => {
    const garbage = path.join(fx.dir, "garbage.bin");
    await writeFile(garbage, Buffer.from("this is not a zip file at all, just some text\n".repeat(100)));
    const tiny = path.join(fx.dir, "tiny.bin");
    await writeFile(tiny, "PK");
    const whole = await readFile(fx.archives.deflated);
    const truncated = path.join(fx.dir, "truncated.zip");
    await writeFile(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    const headless = path.join(fx.dir, "headless.zip"); // end record intact, start of the directory gone
    await writeFile(headless, whole.subarray(whole.length - 200));

    for (const [file, message] of [
      [garbage, /no end of central directory record/],
      [tiny, /only 2 bytes/],
      [truncated, /no end of central directory record/],
      [headless, /central directory|truncated/],
    ] as const) {
      const err = await rejectionOf(file);
      expect(err, file).toBeInstanceOf(InvalidZipError);
      expect((err as Error).message).toMatch(message);
    }
    // A size larger than the object (the archive changed after stat): reads come back short.
    expect(await rejectionOf(fx.archives.deflated, whole.length + 10)).toBeInstanceOf(InvalidZipError);
    await expect(readZipDirectory(fileBytesReader(garbage), -1)).rejects.toBeInstanceOf(RangeError);
  });

  it("rejects end and directory records that contradict the archive", async () => {
    const whole = await readFile(fx.archives.stored);
    const eocdAt = whole.length - 22;
    const wrongCount = Buffer.from(whole);
    wrongCount.writeUInt16LE(wrongCount.readUInt16LE(eocdAt + 10) + 1, eocdAt + 10);
    const file = path.join(fx.dir, "wrong-count.zip");
    await writeFile(file, wrongCount);
    expect(String(await rejectionOf(file))).toMatch(/InvalidZipError: central directory holds 9 entries, its end record says 10/);

    const spanned = Buffer.from(whole);
    spanned.writeUInt16LE(1, eocdAt + 4);
    await writeFile(file, spanned);
    expect(String(await rejectionOf(file))).toMatch(/multi-disk/);

    const pastEnd = Buffer.from(whole);
    pastEnd.writeUInt32LE(pastEnd.readUInt32LE(eocdAt + 12) + 1, eocdAt + 12);
    await writeFile(file, pastEnd);
    expect(String(await rejectionOf(file))).toMatch(/extends past/);

    const zip64 = await readFile(fx.archives.zip64);
    const locatorAt = zip64.length - 22 - 20;
    expect(zip64.readUInt32LE(locatorAt)).toBe(0x07064b50);
    for (const [shift, message] of [
      [-1n, /ZIP64 end of central directory record missing/],
      [100n, /lies past its locator/],
    ] as const) {
      const moved = Buffer.from(zip64);
      moved.writeBigUInt64LE(moved.readBigUInt64LE(locatorAt + 8) + shift, locatorAt + 8);
      await writeFile(file, moved);
      expect(String(await rejectionOf(file))).toMatch(message);
    }

    const cdAt = whole.readUInt32LE(eocdAt + 16);
    const badOffset = Buffer.from(whole);
    badOffset.writeUInt32LE(cdAt, cdAt + 42); // first entry's data would start at the directory
    await writeFile(file, badOffset);
    expect(String(await rejectionOf(file))).toMatch(/overlap the central directory/);

    const noZip64 = Buffer.from(whole);
    noZip64.writeUInt32LE(0xffffffff, cdAt + 20); // compressed size saturated, but no ZIP64 extra field
    await writeFile(file, noZip64);
    expect(String(await rejectionOf(file))).toMatch(/lacks its ZIP64 extra field/);

    const lastAt = whole.lastIndexOf("PK\x01\x02", eocdAt, "latin1");
    const longComment = Buffer.from(whole);
    longComment.writeUInt16LE(1000, lastAt + 32); // the last record's comment would run past the directory
    await writeFile(file, longComment);
    expect(String(await rejectionOf(file))).toMatch(/central directory record at offset \d+ is truncated/);
  });
});

/**
 * A stored-only archive. With `zip64`, every size and offset lives in ZIP64 extra fields and the
 * end records are ZIP64 ones; without, it is a classic archive with plain 32-bit fields.
 */
function handmadeZip(files: [string, Buffer][], zip64: boolean): Buffer {
  const dosDate = ((MTIME.getUTCFullYear() - 1980) << 9) | ((MTIME.getUTCMonth() + 1) << 5) | MTIME.getUTCDate();
  const dosTime = (MTIME.getUTCHours() << 11) | (MTIME.getUTCMinutes() << 5) | (MTIME.getUTCSeconds() / 2);
  const saturated = (value: number) => (zip64 ? 0xffffffff : value);
  const parts: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of files) {
    const nameBytes = Buffer.from(name);
    const crc = crc32(content);
    const local = Buffer.alloc(30 + nameBytes.length + (zip64 ? 20 : 0));
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(45, 4);
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(saturated(content.length), 18);
    local.writeUInt32LE(saturated(content.length), 22);
    local.writeUInt16LE(nameBytes.length, 26);
    nameBytes.copy(local, 30);
    const central = Buffer.alloc(46 + nameBytes.length + (zip64 ? 28 : 0));
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 45, 4);
    central.writeUInt16LE(45, 6);
    central.writeUInt16LE(dosTime, 12);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(saturated(content.length), 20);
    central.writeUInt32LE(saturated(content.length), 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(saturated(offset), 42);
    nameBytes.copy(central, 46);
    if (zip64) {
      const localExtra = 30 + nameBytes.length;
      local.writeUInt16LE(20, 28);
      local.writeUInt16LE(1, localExtra);
      local.writeUInt16LE(16, localExtra + 2);
      local.writeBigUInt64LE(BigInt(content.length), localExtra + 4);
      local.writeBigUInt64LE(BigInt(content.length), localExtra + 12);
      const centralExtra = 46 + nameBytes.length;
      central.writeUInt16LE(28, 30);
      central.writeUInt16LE(1, centralExtra);
      central.writeUInt16LE(24, centralExtra + 2);
      central.writeBigUInt64LE(BigInt(content.length), centralExtra + 4); // uncompressed
      central.writeBigUInt64LE(BigInt(content.length), centralExtra + 12); // compressed
      central.writeBigUInt64LE(BigInt(offset), centralExtra + 20); // local header offset
    }
    parts.push(local, content);
    centrals.push(central);
    offset += local.length + content.length;
  }
  const directory = Buffer.concat(centrals);
  parts.push(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  if (zip64) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE((3 << 8) | 45, 12);
    record.writeUInt16LE(45, 14);
    record.writeBigUInt64LE(BigInt(files.length), 24);
    record.writeBigUInt64LE(BigInt(files.length), 32);
    record.writeBigUInt64LE(BigInt(directory.length), 40);
    record.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
    locator.writeUInt32LE(1, 16);
    parts.push(record, locator);
  }
  end.writeUInt16LE(zip64 ? 0xffff : files.length % 0x10000, 8);
  end.writeUInt16LE(zip64 ? 0xffff : files.length % 0x10000, 10);
  end.writeUInt32LE(saturated(directory.length), 12);
  end.writeUInt32LE(saturated(offset), 16);
  return Buffer.concat([...parts, end]);
}
