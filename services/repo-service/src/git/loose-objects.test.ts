import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, utimesSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { gitIn, gitOk } from "../../test/support.ts";
import { ObjectBatch, objectFormat, writeObject } from "./loose-objects.ts";

const scratch = mkdtempSync(path.join(os.tmpdir(), "quarry-loose-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function bareRepository(name: string, format = "sha1"): string {
  const dir = path.join(scratch, name);
  execFileSync("git", ["init", "--quiet", "--bare", `--object-format=${format}`, dir]);
  return dir;
}

/** What `git hash-object -t <type> --stdin` says (without writing). */
function gitHash(dir: string, type: string, content: Buffer): string {
  return execFileSync("git", ["--git-dir", dir, "hash-object", "-t", type, "--stdin", "--literally"], { input: content }).toString().trim();
}

describe("writeObject", () => {
  it("writes blobs, trees and commits git reads back byte for byte, under the ids git gives them", async () => {
    const dir = bareRepository("sha1");
    const bytes = Buffer.from(Array.from({ length: 300 }, (_, i) => i % 256));
    const blob = await writeObject(dir, "blob", bytes);
    expect(blob).toBe(gitHash(dir, "blob", bytes));
    expect(Buffer.compare(execFileSync("git", ["--git-dir", dir, "cat-file", "blob", blob]), bytes)).toBe(0);

    const tree = Buffer.concat([Buffer.from("100644 data\0"), Buffer.from(blob, "hex")]);
    const treeId = await writeObject(dir, "tree", tree);
    expect(gitIn(dir, "ls-tree", treeId)).toBe(`100644 blob ${blob}\tdata`);
    const commit = Buffer.from(`tree ${treeId}\nauthor A <a@example.com> 1700000000 +0000\ncommitter A <a@example.com> 1700000000 +0000\n\nHello`);
    const commitId = await writeObject(dir, "commit", commit);
    expect(commitId).toBe(gitHash(dir, "commit", commit));
    expect(gitIn(dir, "log", "--format=%s %an", commitId)).toBe("Hello A");
    expect(gitIn(dir, "fsck", "--strict", "--no-dangling", "--no-progress")).toBe("");
    // Read-only, as git leaves loose objects.
    expect(statSync(path.join(dir, "objects", blob.slice(0, 2), blob.slice(2))).mode & 0o777).toBe(0o444);
  });

  it("writes large objects (compressed on the thread pool) the same way", async () => {
    const dir = bareRepository("large");
    const big = Buffer.from("0123456789abcdef\n".repeat(20_000));
    const oid = await writeObject(dir, "blob", big);
    expect(oid).toBe(gitHash(dir, "blob", big));
    expect(Buffer.compare(execFileSync("git", ["--git-dir", dir, "cat-file", "blob", oid], { maxBuffer: 1 << 24 }), big)).toBe(0);
    expect(await writeObject(dir, "blob", big)).toBe(oid);
    expect(gitIn(dir, "fsck", "--strict", "--no-dangling", "--no-progress")).toBe("");
  });

  it("leaves an existing object alone but freshens it, so gc does not take it for old garbage", async () => {
    const dir = bareRepository("fresh");
    const content = Buffer.from("same\n");
    const oid = await writeObject(dir, "blob", content);
    const file = path.join(dir, "objects", oid.slice(0, 2), oid.slice(2));
    utimesSync(file, new Date(2000, 0, 1), new Date(2000, 0, 1));
    expect(await writeObject(dir, "blob", content)).toBe(oid);
    expect(statSync(file).mtime.getFullYear()).toBeGreaterThan(2000);
    expect(gitIn(dir, "count-objects")).toMatch(/^1 objects/);
  });

  it("gives a batch's objects their ids at once and writes them together", async () => {
    const dir = bareRepository("batch");
    const batch = await ObjectBatch.for(dir);
    const blob = batch.add("blob", Buffer.from("x\n"));
    const tree = batch.add("tree", Buffer.concat([Buffer.from("100644 x\0"), Buffer.from(blob, "hex")]));
    expect(gitOk(dir, "cat-file", "-e", tree)).toBe(false);
    await batch.write(dir);
    expect(gitIn(dir, "ls-tree", tree)).toBe(`100644 blob ${blob}\tx`);
    expect(gitIn(dir, "cat-file", "blob", blob)).toBe("x");
  });

  it("hashes with SHA-256 in a repository of that object format", async () => {
    const dir = bareRepository("sha256", "sha256");
    expect(await objectFormat(dir)).toBe("sha256");
    const oid = await writeObject(dir, "blob", Buffer.from("hi\n"));
    expect(oid).toHaveLength(64);
    expect(oid).toBe(gitHash(dir, "blob", Buffer.from("hi\n")));
    expect(gitIn(dir, "cat-file", "blob", oid)).toBe("hi");
  });
});
