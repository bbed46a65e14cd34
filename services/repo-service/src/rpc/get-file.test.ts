import { createHash } from "node:crypto";
import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, makeCommit, makeTreeCommit, newProject, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { Lru } from "../git/files.ts";
import { getFile } from "./get-file.ts";

let t: TestContext;
let get: ReturnType<typeof getFile>;
let repo: { diskPath: string; dir: string };
let first: string;
let second: string;

/** Every byte value, so binary content must survive the round trip exactly. */
const BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const sha256 = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");

beforeAll(async () => {
  t = await setUp("repo_get_file");
  get = getFile(t.deps);
  repo = await repositoryWith(t);
  const submodule = makeCommit(repo.dir, { message: "elsewhere\n" });
  const files = {
    "README.md": "hello\n",
    "lib/a.rb": "puts 1\n",
    "lib/deep/er/b.txt": "deep\n",
    "bin/run": { content: "#!/bin/sh\n", mode: "100755" },
    "data.bin": BYTES,
    link: { content: "README.md", mode: "120000" },
    sub: { content: submodule, mode: "160000" },
    "ünï code.txt": "unicode\n",
  };
  first = makeTreeCommit(repo.dir, files, { message: "First\n" });
  second = makeTreeCommit(repo.dir, { ...files, "lib/a.rb": "puts 2\n" }, { message: "Second\n", parents: [first] });
  gitIn(repo.dir, "update-ref", "refs/heads/main", second);
  gitIn(repo.dir, "update-ref", "refs/tags/v1", first);
});
afterAll(() => t?.close());

const request = (filePath: string, ref = "main", withContent = true) => get({ diskPath: repo.diskPath, filePath, ref, withContent });

describe("GetFile", () => {
  it("reads a file with GitLab's metadata: blob, commit of the ref, last commit of the path", async () => {
    const blobId = gitIn(repo.dir, "rev-parse", `${second}:lib/a.rb`);
    expect(await request("lib/a.rb")).toEqual({
      fileName: "a.rb",
      filePath: "lib/a.rb",
      size: 7,
      content: Buffer.from("puts 2\n"),
      contentSha256: sha256("puts 2\n"),
      ref: "main",
      blobId,
      commitId: second,
      lastCommitId: second,
      executeFilemode: false,
      binary: false,
    });
    expect((await request("README.md")).lastCommitId).toBe(first);
    expect(await request("lib/deep/er/b.txt")).toMatchObject({ fileName: "b.txt", content: Buffer.from("deep\n"), lastCommitId: first });
  });

  it("resolves tags, shas, HEAD and the empty ref (the default branch)", async () => {
    expect(await request("lib/a.rb", "v1")).toMatchObject({ content: Buffer.from("puts 1\n"), commitId: first, lastCommitId: first, ref: "v1" });
    expect((await request("lib/a.rb", first.slice(0, 8))).commitId).toBe(first);
    expect(await request("lib/a.rb", "HEAD")).toMatchObject({ commitId: second, ref: "HEAD" });
    expect((await request("lib/a.rb", "")).commitId).toBe(second);
    expect((await request("lib/a.rb", "main~1")).commitId).toBe(first);
  });

  it("returns binary content byte for byte, and flags it binary", async () => {
    const file = await request("data.bin");
    expect(Buffer.compare(file.content, BYTES)).toBe(0);
    expect(file).toMatchObject({ size: 256, binary: true, contentSha256: sha256(BYTES) });
  });

  it("leaves the content out when not wanted, keeping every other field", async () => {
    const full = await request("data.bin");
    const meta = await request("data.bin", "main", false);
    expect(meta).toEqual({ ...full, content: Buffer.alloc(0) });
    // Fresh handler: nothing cached, the checksum is still computed.
    expect(await getFile(t.deps)({ diskPath: repo.diskPath, filePath: "README.md", ref: "main", withContent: false })).toMatchObject({
      contentSha256: sha256("hello\n"),
      size: 6,
    });
  });

  it("knows executables, symbolic links and non-ASCII names", async () => {
    expect(await request("bin/run")).toMatchObject({ executeFilemode: true, fileName: "run" });
    expect(await request("link")).toMatchObject({ content: Buffer.from("README.md"), executeFilemode: false });
    expect(await request("ünï code.txt")).toMatchObject({ content: Buffer.from("unicode\n") });
  });

  it("answers 404 File Not Found for missing paths, directories and submodules", async () => {
    for (const filePath of ["nope.txt", "lib", "lib/", "lib/a.rb/x", "sub", "LIB/a.rb", "lib//a.rb", "./README.md"]) {
      await expect(request(filePath), filePath).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 File Not Found" } });
    }
  });

  it("answers 404 Commit Not Found for refs that name no commit", async () => {
    for (const ref of ["nope", "0".repeat(40), `${second}:README.md`, "main\nREADME.md"]) {
      await expect(request("README.md", ref), ref).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Commit Not Found" } });
    }
  });

  it("refuses traversal and absolute paths like GitLab (400 file_path should be a valid file path)", async () => {
    for (const filePath of ["../etc/passwd", "lib/../README.md", "lib/..", "..", ".", "/etc/passwd", "a\nb", "a\\..\\b", "a\0b"]) {
      await expect(request(filePath), JSON.stringify(filePath)).rejects.toMatchObject({
        code: status.INVALID_ARGUMENT,
        body: { error: "file_path should be a valid file path" },
      });
    }
  });

  it("answers 404 for a missing repository", async () => {
    await expect(get({ diskPath: newProject().diskPath, filePath: "a", ref: "main", withContent: true })).rejects.toMatchObject({
      body: { message: "404 Repository Not Found" },
    });
  });
});

describe("Lru", () => {
  it("evicts the least recently used entry", () => {
    const lru = new Lru<number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.get("a")).toBe(1); // "b" is now the oldest
    lru.set("c", 3);
    expect([lru.get("a"), lru.get("b"), lru.get("c")]).toEqual([1, undefined, 3]);
  });
});
