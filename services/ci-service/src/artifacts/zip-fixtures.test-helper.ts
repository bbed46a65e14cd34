// Test archives made by the system `zip` binary, the zipinfo/unzip oracles they are checked
// against, readers over plain files, and the two object stores the adapters run against.
import { execFile } from "node:child_process";
import { createReadStream } from "node:fs";
import { chmod, mkdir, mkdtemp, open, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { LocalDiskObjectStore, MinioObjectStore, type ObjectStore } from "@quarry/object-store";
import S3rver from "s3rver";
import { readZipDirectory, type ReadBytes, type ZipEntry } from "./zip-directory.ts";
import type { ReadStream } from "./zip-entry.ts";

const exec = promisify(execFile);

/** Runs a command; TZ=UTC so zip stores DOS times that equal the files' UTC mtimes. */
export async function run(cmd: string, args: string[], cwd: string, input?: string): Promise<Buffer> {
  const child = exec(cmd, args, { cwd, env: { ...process.env, TZ: "UTC" }, encoding: "buffer", maxBuffer: 1 << 30 });
  if (input !== undefined) child.child.stdin?.end(input);
  return (await child).stdout;
}

/** Every file and directory of the source tree gets this mtime (an even second: DOS time has 2 s steps). */
export const MTIME = new Date("2024-02-29T13:14:16Z");

export const UTF8_DIR = "ünïcødé";
export const UTF8_FILE = `${UTF8_DIR}/✓ файл.txt`;

/** path → [content, mode]; directories are implied. */
const TREE: Record<string, [Buffer, number]> = {
  "top.txt": [Buffer.from("hello\n"), 0o644],
  "empty.txt": [Buffer.alloc(0), 0o600],
  "script.sh": [Buffer.from("#!/bin/sh\necho hi\n"), 0o755],
  "nested/deeper/leaf.txt": [Buffer.from("a leaf line that repeats\n".repeat(2000)), 0o644],
  "nested/random.bin": [pseudoRandomBytes(4096, 7), 0o640],
  [UTF8_FILE]: [Buffer.from("utf-8 content ✓\n"), 0o644],
};

/** Names `zip -r` stores for TREE (in readdir order, each directory before its contents). */
export const TREE_ENTRY_NAMES = [
  "top.txt",
  "empty.txt",
  "script.sh",
  "nested/",
  "nested/deeper/",
  "nested/deeper/leaf.txt",
  "nested/random.bin",
  `${UTF8_DIR}/`,
  UTF8_FILE,
];

export function fileContent(name: string): Buffer {
  const file = TREE[name];
  if (!file) throw new Error(`no such test file ${name}`);
  return file[0];
}

export function fileMode(name: string): number {
  return TREE[name]?.[1] ?? 0o755; // directories are created 0755
}

/** Deterministic bytes (xorshift32). */
export function pseudoRandomBytes(size: number, seed: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

export interface Fixtures {
  dir: string;
  /** Archive name → path on disk. */
  archives: Record<ArchiveName, string>;
  bigFile: Buffer;
  close(): Promise<void>;
}

export type ArchiveName = "deflated" | "stored" | "zip64" | "big" | "commented" | "encrypted";

/** Size of the big entry: over 16 MiB, hex text so deflate halves it but zip still deflates it. */
export const BIG_SIZE = 17 * 1024 * 1024 + 123;

export async function createFixtures(): Promise<Fixtures> {
  const dir = await mkdtemp(path.join(tmpdir(), "quarry-artifacts-zip-"));
  const src = path.join(dir, "src");
  for (const [name, [content, mode]] of Object.entries(TREE)) {
    await mkdir(path.join(src, path.dirname(name)), { recursive: true });
    await writeFile(path.join(src, name), content);
    await chmod(path.join(src, name), mode);
  }
  for (const name of [...TREE_ENTRY_NAMES, ""]) await utimes(path.join(src, name), MTIME, MTIME);
  const bigFile = Buffer.from(
    pseudoRandomBytes(BIG_SIZE / 2 + 1, 99)
      .toString("hex")
      .slice(0, BIG_SIZE),
  );
  await writeFile(path.join(src, "big.txt"), bigFile);

  const roots = ["top.txt", "empty.txt", "script.sh", "nested", UTF8_DIR];
  const archives = {} as Record<ArchiveName, string>;
  const zip = async (name: ArchiveName, options: string[], files: string[], input?: string) => {
    archives[name] ??= path.join(dir, `${name}.zip`);
    await run("zip", ["-q", ...options, archives[name], ...files], src, input);
  };
  await zip("deflated", ["-r", "-9"], roots);
  await zip("stored", ["-r", "-0"], roots);
  await zip("zip64", ["-r", "-fz"], roots); // -fz forces ZIP64 records even for a small archive
  await zip("big", [], ["big.txt", "top.txt"]);
  await zip("encrypted", ["-P", "secret"], ["top.txt"]);
  // One comment line per file, then the archive comment.
  await zip("commented", ["-c"], ["top.txt", "script.sh"], "a <comment> & more\nsecond\n");
  await zip("commented", ["-z"], [], "the archive comment\n");

  return { dir, archives, bigFile, close: () => rm(dir, { recursive: true, force: true }) };
}

/** What Info-ZIP's zipinfo reports about an entry: the oracle the directory reader is checked against. */
export interface ZipinfoEntry {
  name: string;
  localHeaderOffset: number;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  mode: number | null;
  modified: Date;
  comment: string;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

export async function zipinfo(archive: string): Promise<{ centralDirectoryOffset: number; entries: ZipinfoEntry[] }> {
  const cwd = path.dirname(archive);
  const names = (await run("zipinfo", ["-1", archive], cwd)).toString("utf8").split("\n").filter(Boolean);
  const report = (await run("zipinfo", ["-v", archive], cwd)).toString("utf8");
  const field = (block: string, pattern: RegExp) => {
    const match = pattern.exec(block);
    if (!match) throw new Error(`zipinfo output lacks ${pattern}`);
    return match;
  };
  const entries = report
    .split(/^Central directory entry #\d+:$/m)
    .slice(1)
    .map((block, i): ZipinfoEntry => {
      const [, year, month, day, hour, minute, second] = field(block, /\(DOS date\/time\):\s+(\d+) (\w+) (\d+) (\d+):(\d+):(\d+)/);
      const unixMode = /Unix file attributes \((\d+) octal\)/.exec(block);
      return {
        name: names[i]!,
        localHeaderOffset: Number(field(block, /offset of local header from start of archive:\s+(\d+)/)[1]),
        method: field(block, /compression method:\s+(.+)/)[1] === "none (stored)" ? 0 : 8,
        crc32: parseInt(field(block, /32-bit CRC value \(hex\):\s+([0-9a-f]+)/)[1]!, 16),
        compressedSize: Number(field(block, /^\s+compressed size:\s+(\d+) bytes/m)[1]),
        uncompressedSize: Number(field(block, /uncompressed size:\s+(\d+) bytes/)[1]),
        mode: unixMode ? parseInt(unixMode[1]!, 8) : null,
        modified: new Date(Date.UTC(+year!, MONTHS.indexOf(month!), +day!, +hour!, +minute!, +second!)),
        comment: /file comment begins -+\n([\s\S]*?)\n-+ file comment ends/.exec(block)?.[1] ?? "",
      };
    });
  const centralDirectoryOffset = Number(field(report, /offset in bytes from the beginning of the zipfile\s+is (\d+)/)[1]);
  return { centralDirectoryOffset, entries };
}

/** `unzip -p`: the entry's content as Info-ZIP extracts it. */
export function unzipEntry(archive: string, name: string): Promise<Buffer> {
  return run("unzip", ["-p", archive, name], path.dirname(archive));
}

/** `ReadBytes` over a file; `reads` records every (offset, length) asked for. */
export function fileBytesReader(file: string, reads: [number, number][] = []): ReadBytes {
  return async (offset, length) => {
    reads.push([offset, length]);
    const handle = await open(file);
    try {
      const bytes = Buffer.alloc(length);
      const { bytesRead } = await handle.read(bytes, 0, length, offset);
      return bytes.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  };
}

/** The directory of an archive file, read through `fileBytesReader`. */
export async function directoryOf(file: string, reads?: [number, number][]): Promise<ZipEntry[]> {
  return readZipDirectory(fileBytesReader(file, reads), (await stat(file)).size);
}

export function fileStreamReader(file: string): ReadStream {
  return async (offset, length) => (length === 0 ? Readable.from([]) : createReadStream(file, { start: offset, end: offset + length - 1 }));
}

export interface OpenStore {
  store: ObjectStore;
  close(): Promise<void>;
}

/** The two ObjectStore implementations, each on a fresh bucket. */
export const STORES: { name: string; open(): Promise<OpenStore> }[] = [
  {
    name: "LocalDiskObjectStore",
    async open() {
      const root = await mkdtemp(path.join(tmpdir(), "quarry-artifacts-local-"));
      const store = new LocalDiskObjectStore({ root, bucket: "artifacts" });
      await store.ensureBucket();
      return { store, close: () => rm(root, { recursive: true, force: true }) };
    },
  },
  {
    name: "MinioObjectStore against s3rver",
    async open() {
      const directory = await mkdtemp(path.join(tmpdir(), "quarry-artifacts-s3rver-"));
      const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, resetOnClose: true });
      const { port } = await server.run();
      const store = new MinioObjectStore({
        endPoint: "127.0.0.1",
        port,
        useSSL: false,
        accessKey: "S3RVER",
        secretKey: "S3RVER",
        bucket: "artifacts",
      });
      await store.ensureBucket();
      return {
        store,
        async close() {
          await server.close();
          await rm(directory, { recursive: true, force: true });
        },
      };
    },
  },
];
