import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, makeCommit, newProject, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { findBlob } from "./find-blob.ts";

let t: TestContext;
let find: ReturnType<typeof findBlob>;
let repo: { diskPath: string; dir: string };
let blob: string;

beforeAll(async () => {
  t = await setUp("repo_find_blob");
  find = findBlob(t.deps);
  repo = await repositoryWith(t);
  const head = makeCommit(repo.dir, { files: { "bin.dat": "\x00\x01binary", "a.txt": "hello\n" } });
  gitIn(repo.dir, "update-ref", "refs/heads/main", head);
  blob = gitIn(repo.dir, "rev-parse", "main:a.txt");
});
afterAll(() => t?.close());

describe("FindBlob", () => {
  it("reads a blob by full or abbreviated id", async () => {
    expect(await find({ diskPath: repo.diskPath, oid: blob })).toEqual({ oid: blob, size: 6, data: Buffer.from("hello\n") });
    expect((await find({ diskPath: repo.diskPath, oid: blob.slice(0, 7).toUpperCase() })).oid).toBe(blob);
    const bin = await find({ diskPath: repo.diskPath, oid: gitIn(repo.dir, "rev-parse", "main:bin.dat") });
    expect(bin.data).toEqual(Buffer.from("\x00\x01binary"));
  });

  it.each([["abcd9876"], ["main"], ["main:a.txt"], ["HEAD"], [""], ["-x"]])("answers 404 Blob Not Found for %j", async (oid) => {
    await expect(find({ diskPath: repo.diskPath, oid })).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Blob Not Found" } });
  });

  it("answers 404 Blob Not Found for objects that are not blobs", async () => {
    for (const rev of ["main", "main^{tree}"]) {
      await expect(find({ diskPath: repo.diskPath, oid: gitIn(repo.dir, "rev-parse", rev) })).rejects.toMatchObject({
        body: { message: "404 Blob Not Found" },
      });
    }
  });

  it("answers 404 for a missing repository", async () => {
    await expect(find({ diskPath: newProject().diskPath, oid: blob })).rejects.toMatchObject({ body: { message: "404 Repository Not Found" } });
  });
});
