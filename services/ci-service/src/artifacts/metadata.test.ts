import { chmod, mkdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS_METADATA_HEADER, buildArtifactsMetadata, InvalidArtifactsMetadataError, readArtifactsMetadata } from "./metadata.ts";
import type { ZipEntry } from "./zip-directory.ts";
import { createFixtures, directoryOf, fileMode, MTIME, run, TREE_ENTRY_NAMES, type Fixtures } from "./zip-fixtures.test-helper.ts";

let fx: Fixtures;
beforeAll(async () => (fx = await createFixtures()));
afterAll(() => fx?.close());

/** One length-prefixed "string" of the format. */
function str(value: string | Buffer): Buffer {
  const bytes = typeof value === "string" ? Buffer.from(value) : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

const PREAMBLE = Buffer.concat([str(ARTIFACTS_METADATA_HEADER), str("{}")]);

/** The payload's path strings (every other string after the preamble). */
function pathsOf(payload: Buffer): string[] {
  const strings: Buffer[] = [];
  for (let at = 0; at < payload.length; ) {
    const length = payload.readUInt32BE(at);
    strings.push(payload.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return strings
    .slice(2)
    .filter((_, i) => i % 2 === 0)
    .map((p) => p.toString("latin1"));
}

/** A directory record as readZipDirectory would return it, for names no zip tool writes. */
function entry(name: string, overrides: Partial<ZipEntry> = {}): ZipEntry {
  return {
    name,
    nameBytes: Buffer.from(name),
    comment: "",
    commentBytes: Buffer.alloc(0),
    method: 0,
    encrypted: false,
    crc32: 0,
    compressedSize: 0,
    uncompressedSize: 0,
    localHeaderOffset: 0,
    madeBy: 3,
    externalAttributes: (0o100644 << 16) >>> 0,
    mode: 0o100644,
    isDirectory: name.endsWith("/"),
    modified: MTIME,
    ...overrides,
  };
}

describe("buildArtifactsMetadata", () => {
  it("writes exactly the bytes of the format for a zip-made archive (fixture derived by hand)", async () => {
    const src = path.join(fx.dir, "meta-src");
    await mkdir(path.join(src, "dir", "sub"), { recursive: true });
    await writeFile(path.join(src, "a.txt"), "hello\n");
    await writeFile(path.join(src, "dir", "sub", "b.txt"), "");
    for (const [name, mode] of [
      ["a.txt", 0o644],
      ["dir", 0o755],
      ["dir/sub/b.txt", 0o600],
    ] as const) {
      await chmod(path.join(src, name), mode);
      await utimes(path.join(src, name), MTIME, MTIME);
    }
    const archive = path.join(fx.dir, "meta.zip");
    // Stored; "dir/" gets an entry, "dir/sub/" does not; a.txt gets a comment that needs Go's HTML escapes.
    await run("zip", ["-q", "-0", "-c", archive, "a.txt", "dir/", "dir/sub/b.txt"], src, "<&> ✓\n\n\n");

    // 2024-02-29T13:14:16Z is 1709212456; CRC-32 of "hello\n" is 909783072 (0x363a3020).
    const expected = Buffer.from(
      "\x00\x00\x00\x26GitLab Build Artifacts Metadata 0.0.2\n" +
        "\x00\x00\x00\x02{}" +
        "\x00\x00\x00\x05a.txt" +
        '\x00\x00\x00\x6c{"modified":1709212456,"mode":"644","crc":909783072,"size":6,"zipped":6,"comment":"\\u003c\\u0026\\u003e \xe2\x9c\x93"}\n' +
        "\x00\x00\x00\x04dir/" +
        '\x00\x00\x00\x41{"modified":1709212456,"mode":"755","crc":0,"size":0,"zipped":0}\n' +
        "\x00\x00\x00\x08dir/sub/" +
        '\x00\x00\x00\x1e{"crc":0,"size":0,"zipped":0}\n' +
        "\x00\x00\x00\x0ddir/sub/b.txt" +
        '\x00\x00\x00\x41{"modified":1709212456,"mode":"600","crc":0,"size":0,"zipped":0}\n',
      "latin1",
    );
    expect(gunzipSync(buildArtifactsMetadata(await directoryOf(archive)))).toEqual(expected);
  });

  it("adds parent directories and sorts bytewise exactly like workhorse, whatever the names", () => {
    // The names of workhorse's own metadata test, which no zip tool would write.
    const names = [
      "file1",
      "some/file/dir/",
      "some/file/dir/file2",
      "../../test12/test",
      "/usr/bin/test",
      "c:\\windows\\win32.exe",
      "c:/windows/win.dll",
      "./f/asd",
      "/",
    ];
    const payload = gunzipSync(buildArtifactsMetadata(names.map((n) => entry(n))));
    expect(payload.subarray(0, PREAMBLE.length)).toEqual(PREAMBLE);
    expect(pathsOf(payload)).toEqual([
      "../",
      "../../",
      "../../test12/",
      "../../test12/test",
      "./f/asd",
      "/",
      "/usr/",
      "/usr/bin/",
      "/usr/bin/test",
      "c:/",
      "c:/windows/",
      "c:/windows/win.dll",
      "c:\\windows\\win32.exe",
      "f/",
      "file1",
      "some/",
      "some/file/",
      "some/file/dir/",
      "some/file/dir/file2",
    ]);
  });

  it("writes the stored name bytes, sorted as bytes, and a later duplicate's metadata", () => {
    const cp437 = entry("é.txt", { nameBytes: Buffer.from([0x82, 0x2e, 0x74, 0x78, 0x74]) });
    const payload = gunzipSync(buildArtifactsMetadata([entry("z.txt"), cp437, entry("a.txt", { crc32: 1 }), entry("a.txt", { crc32: 2 })]));
    expect(payload).toEqual(
      Buffer.concat([
        PREAMBLE,
        str("a.txt"),
        str('{"modified":1709212456,"mode":"644","crc":2,"size":0,"zipped":0}\n'),
        str("z.txt"),
        str('{"modified":1709212456,"mode":"644","crc":0,"size":0,"zipped":0}\n'),
        str(cp437.nameBytes),
        str('{"modified":1709212456,"mode":"644","crc":0,"size":0,"zipped":0}\n'),
      ]),
    );
  });

  it("derives modes as Go's archive/zip does and leaves out a zero modification time", () => {
    const json = (e: ZipEntry) =>
      gunzipSync(buildArtifactsMetadata([e]))
        .subarray(PREAMBLE.length + 4 + 1 + 4)
        .toString();
    const dos = (attributes: number, madeBy = 0) => entry("x", { madeBy, externalAttributes: attributes, mode: null });
    expect(json(dos(0x00))).toContain('"mode":"666"');
    expect(json(dos(0x01))).toContain('"mode":"444"'); // read-only
    expect(json(dos(0x10, 11))).toContain('"mode":"777"'); // directory, NTFS
    expect(json(dos(0x11, 14))).toContain('"mode":"555"');
    expect(json(dos(0x10, 7))).toContain('"mode":"0"'); // a host Go does not interpret
    expect(json(entry("x", { mode: 0o104755 }))).toContain('"mode":"755"'); // setuid is not a permission bit
    expect(json(entry("x", { modified: new Date(0) }))).toBe('{"mode":"644","crc":0,"size":0,"zipped":0}\n');
  });

  it("encodes comments as Go's encoding/json does", () => {
    const comment = Buffer.concat([
      Buffer.from('"q" \\ <a> & \x01\x08\x0c\n\r\t\x7f é \u2028\u2029 ', "utf8"),
      Buffer.from([0xff, 0x20, 0xe2, 0x82, 0x20, 0xed, 0xa0, 0x80, 0x20, 0xf0, 0x9f, 0x98, 0x80]),
    ]);
    const payload = gunzipSync(buildArtifactsMetadata([entry("x", { commentBytes: comment })]));
    const json = payload.subarray(PREAMBLE.length + 4 + 1 + 4).toString("utf8");
    expect(json).toBe(
      '{"modified":1709212456,"mode":"644","crc":0,"size":0,"zipped":0,"comment":' +
        '"\\"q\\" \\\\ \\u003ca\\u003e \\u0026 \\u0001\\b\\f\\n\\r\\t\x7f é \\u2028\\u2029 ' +
        // invalid byte; truncated sequence (one \ufffd per byte); UTF-8-encoded surrogate; valid 4-byte emoji
        '\\ufffd \\ufffd\\ufffd \\ufffd\\ufffd\\ufffd 😀"}\n',
    );
  });
});

describe("readArtifactsMetadata", () => {
  it("round-trips a real archive's directory, parents included", async () => {
    const archive = path.join(fx.dir, "nodirs.zip");
    await run("zip", ["-q", "-r", "-D", archive, "top.txt", "empty.txt", "script.sh", "nested", "ünïcødé"], path.join(fx.dir, "src"));
    const entries = await directoryOf(archive);
    expect(entries.some((e) => e.isDirectory)).toBe(false);
    const byName = new Map(entries.map((e) => [e.name, e]));
    const expected = [...TREE_ENTRY_NAMES]
      .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
      .map((name) => {
        const file = byName.get(name);
        if (!file) return { path: name, crc: 0, size: 0, zipped: 0 }; // a parent the archive does not list
        const { crc32: crc, uncompressedSize: size, compressedSize: zipped } = file;
        return { path: name, modified: MTIME.getTime() / 1000, mode: fileMode(name).toString(8), crc, size, zipped };
      });
    expect(readArtifactsMetadata(buildArtifactsMetadata(entries))).toEqual(expected);
  });

  it("skips what GitLab's reader skips: unsafe paths, non-UTF-8, bad JSON; the last duplicate wins in place", () => {
    const meta = '{"size":1}\n';
    const payload = Buffer.concat([
      PREAMBLE,
      ...["/abs", "../up", "./here", "a//b", "a/./b", "a/../b", "x\n/y"].flatMap((p) => [str(p), str(meta)]),
      str("dup.txt"),
      str('{"size":1,"crc":5}\n'),
      str(Buffer.from([0x66, 0xff])),
      str(meta),
      str("bad-json.txt"),
      str("{nope\n"),
      str("not-an-object.txt"),
      str("[1]\n"),
      str("typed.txt"),
      str('{"size":"7","mode":644,"comment":"c","zipped":3,"extra":true}\n'),
      str("dup.txt"),
      str('{"size":2}\n'),
      str("dir/"),
      str("{}\n"), // older workhorse left out zero crc/size/zipped
      str("truncated.txt"),
      Buffer.from([0, 0, 0, 50, 0x7b]),
    ]);
    expect(readArtifactsMetadata(gzipSync(payload))).toEqual([{ path: "dup.txt", size: 2 }, { path: "typed.txt", zipped: 3, comment: "c" }, { path: "dir/" }]);
  });

  it("accepts any x.y.z version header, as GitLab's VERSION_PATTERN does", () => {
    const payload = Buffer.concat([str("GitLab Build Artifacts Metadata 0.0.1\n"), str("{}"), str("a"), str("{}")]);
    expect(readArtifactsMetadata(gzipSync(payload))).toEqual([{ path: "a" }]);
    // Stray bytes too short for a length end the listing.
    expect(readArtifactsMetadata(gzipSync(Buffer.concat([payload, Buffer.from([0, 0])])))).toEqual([{ path: "a" }]);
  });

  it("rejects data that is not gzip, empty, or without a version", () => {
    const cases: [Buffer, RegExp][] = [
      [Buffer.from("plain text"), /not gzip/],
      [gzipSync(Buffer.alloc(0)), /empty/],
      [gzipSync(Buffer.from([0, 0])), /empty/],
      [gzipSync(Buffer.concat([str("GitLab Build Artifacts Metadata\n"), str("{}")])), /invalid version/],
      [gzipSync(Buffer.concat([str("1.2.3"), str("{}")])), /invalid version/], // the pattern wants a word before the version
    ];
    for (const [gz, message] of cases) {
      expect(() => readArtifactsMetadata(gz)).toThrow(InvalidArtifactsMetadataError);
      expect(() => readArtifactsMetadata(gz)).toThrow(message);
    }
  });
});
