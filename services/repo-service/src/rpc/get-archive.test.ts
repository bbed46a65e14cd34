import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { status } from "@quarry/grpc";
import { waitFor } from "@quarry/testing";
import type { GetArchiveResponse } from "@quarry/proto/types/repo/v1/GetArchiveResponse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, makeCommit, makeTree, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { ARCHIVE_CHUNK_BYTES, archiveFormat, archivePrefix, getArchive } from "./get-archive.ts";

let t: TestContext;
let archive: ReturnType<typeof getArchive>;
let repo: { diskPath: string; dir: string };
let empty: { diskPath: string; dir: string };
let head: string;
let scratch: string;

beforeAll(async () => {
  t = await setUp("repo_archive");
  archive = getArchive(t.deps);
  repo = await repositoryWith(t);
  empty = await repositoryWith(t);
  scratch = mkdtempSync(path.join(os.tmpdir(), "quarry-archive-test-"));
  // Incompressible content larger than one chunk, so the stream has several data messages.
  const noise = Array.from({ length: (2 * ARCHIVE_CHUNK_BYTES) / 32 }, (_, i) => `${(i * 2654435761) % 4294967296}`.padStart(31, "x") + "\n").join("");
  const tree = makeTree(repo.dir, { "README.md": "# hi\n", "bar/b.txt": "b\n", "bar/deep/c.txt": "c\n", "skip/s.txt": "s\n", "noise.txt": noise });
  head = makeCommit(repo.dir, { message: "Archive me\n", tree });
  gitIn(repo.dir, "update-ref", "refs/heads/feature/x", head);
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  return t?.close();
});

const req = (o: Partial<Parameters<typeof archive>[0]> = {}) => ({
  diskPath: repo.diskPath,
  ref: "feature/x",
  projectPath: "proj",
  path: "",
  excludePaths: [],
  format: "",
  ...o,
});

async function collect(r: ReturnType<typeof req>): Promise<{ messages: GetArchiveResponse[]; bytes: Buffer }> {
  const messages: GetArchiveResponse[] = [];
  for await (const m of archive(r)) messages.push(m);
  return { messages, bytes: Buffer.concat(messages.slice(1).map((m) => m.data as Buffer)) };
}

function listing(bytes: Buffer, name: string, list: string[]): string[] {
  const file = path.join(scratch, name);
  writeFileSync(file, bytes);
  return execFileSync(list[0]!, [...list.slice(1), file], { encoding: "utf8" })
    .split("\n")
    .filter((l) => l && !l.endsWith("/"));
}

describe("GetArchive", () => {
  it("names the archive like GitLab and streams a tar.gz in chunks of at most 1 MiB", async () => {
    const { messages, bytes } = await collect(req());
    expect(messages[0]).toEqual({ fileName: `proj-feature-x-${head}.tar.gz`, data: Buffer.alloc(0) });
    expect(messages.length).toBeGreaterThan(2);
    expect(messages.slice(1).every((m) => m.fileName === "" && (m.data as Buffer).length <= ARCHIVE_CHUNK_BYTES)).toBe(true);
    const prefix = `proj-feature-x-${head}/`;
    expect(listing(bytes, "a.tar.gz", ["tar", "-tzf"]).sort()).toEqual(
      ["README.md", "bar/b.txt", "bar/deep/c.txt", "noise.txt", "skip/s.txt"].map((f) => prefix + f),
    );
  });

  it.each([
    ["tar", ["tar", "-tf"]],
    ["tar.bz2", ["tar", "-tjf"]],
    ["zip", ["zipinfo", "-1"]],
  ])("makes %s archives", async (format, list) => {
    const { messages, bytes } = await collect(req({ format }));
    expect(messages[0]!.fileName).toBe(`proj-feature-x-${head}.${format}`);
    expect(listing(bytes, `a.${format}`, list)).toContain(`proj-feature-x-${head}/bar/deep/c.txt`);
  });

  it("gives identical bytes for the same commit and format", async () => {
    for (const format of ["tar.gz", "tar.bz2", "zip", "tar"]) {
      const a = await collect(req({ format }));
      const b = await collect(req({ format, ref: head }));
      expect(b.bytes.equals(a.bytes)).toBe(false); // the prefix names the ref…
      const c = await collect(req({ format }));
      expect(c.bytes.equals(a.bytes)).toBe(true); // …and the same request gives the same bytes
    }
  });

  it("archives a subdirectory and leaves out excluded paths", async () => {
    const sub = await collect(req({ path: "bar", format: "tar" }));
    expect(sub.messages[0]!.fileName).toBe(`proj-feature-x-${head}-bar.tar`);
    expect(listing(sub.bytes, "sub.tar", ["tar", "-tf"]).sort()).toEqual([`proj-feature-x-${head}-bar/bar/b.txt`, `proj-feature-x-${head}-bar/bar/deep/c.txt`]);
    const excluded = await collect(req({ excludePaths: ["skip", "bar/deep", "noise.txt"], format: "tar" }));
    expect(listing(excluded.bytes, "ex.tar", ["tar", "-tf"]).sort()).toEqual([`proj-feature-x-${head}/README.md`, `proj-feature-x-${head}/bar/b.txt`]);
  });

  it("answers 404 File Not Found for an unknown ref or path and an empty repository, before any data", async () => {
    for (const r of [req({ ref: "nope" }), req({ path: "nope" }), req({ path: "../x" }), req({ diskPath: empty.diskPath, ref: "main" })]) {
      await expect(collect(r)).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 File Not Found" } });
    }
  });

  it("stops git when the caller goes away", async () => {
    const projectPath = `gone-${process.pid}-${Date.now()}`;
    const running = () => {
      try {
        return execFileSync("pgrep", ["-f", `prefix=${projectPath}`], { encoding: "utf8" }).trim() !== "";
      } catch {
        return false; // pgrep exits 1 when nothing matches
      }
    };
    const it = archive(req({ format: "tar", projectPath }))[Symbol.asyncIterator]();
    await it.next();
    await it.next();
    // Two MiB of tar do not fit in the pipe: git is still there, waiting for a reader.
    expect(running()).toBe(true);
    await it.return(undefined);
    await waitFor(() => !running());
  });

  it("maps GitLab's format names", () => {
    expect(["tar.gz", "tgz", "gz", "", "rar"].map(archiveFormat)).toEqual(["tar.gz", "tar.gz", "tar.gz", "tar.gz", "tar.gz"]);
    expect(["tar.bz2", "tbz", "tbz2", "tb2", "bz2"].map(archiveFormat)).toEqual(Array(5).fill("tar.bz2"));
    expect(archivePrefix("p", "release/1.0", "abc", "a/b")).toBe("p-release-1.0-abc-a-b");
  });
});
