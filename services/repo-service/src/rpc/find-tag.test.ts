import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { annotatedTag, gitIn, makeCommit, newProject, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { readCommit } from "../git/commits.ts";
import { findTag } from "./find-tag.ts";

let t: TestContext;
let find: ReturnType<typeof findTag>;
let repo: { diskPath: string; dir: string };
let commit: string;

beforeAll(async () => {
  t = await setUp("repo_find_tag");
  find = findTag(t.deps);
  repo = await repositoryWith(t);
  commit = makeCommit(repo.dir, { message: "Tagged\n" });
  gitIn(repo.dir, "update-ref", "refs/tags/release/1.0", commit);
  gitIn(repo.dir, "update-ref", "refs/tags/release/1.0.1", commit);
});
afterAll(() => t?.close());

describe("FindTag", () => {
  it("reads a tag by its exact name, slashes included", async () => {
    expect(await find({ diskPath: repo.diskPath, name: "release/1.0" })).toEqual({
      name: "release/1.0",
      annotated: false,
      message: "",
      target: commit,
      createdAt: "",
      commit: await readCommit(repo.dir, commit),
    });
  });

  it("reads an annotated tag with its object id, message and tagger date", async () => {
    const object = annotatedTag(repo.dir, "v1", commit, "Version 1", "1767225600 -0500");
    expect(await find({ diskPath: repo.diskPath, name: "v1" })).toMatchObject({
      annotated: true,
      target: object,
      message: "Version 1",
      createdAt: "2025-12-31T19:00:00-05:00",
      commit: { id: commit },
    });
  });

  it("answers 404 Tag Not Found for unknown names, prefixes, patterns and revision syntax", async () => {
    for (const name of ["nope", "release", "release/*", "v1^{}", "v1~1", ""]) {
      await expect(find({ diskPath: repo.diskPath, name }), name).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Tag Not Found" } });
    }
    await expect(find({ diskPath: newProject().diskPath, name: "v1" })).rejects.toMatchObject({ body: { message: "404 Repository Not Found" } });
  });
});
