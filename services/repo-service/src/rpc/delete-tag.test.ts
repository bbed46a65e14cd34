import { Subjects } from "@quarry/bus";
import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  annotatedTag,
  expectedPushPayload,
  gitIn,
  gitOk,
  makeCommit,
  newProject,
  outboxPayloads,
  pushContext,
  repositoryWith,
  setUp,
  type TestContext,
} from "../../test/support.ts";
import { deleteTag } from "./delete-tag.ts";
import { NULL_SHA } from "../git/git.ts";

let t: TestContext;
let del: ReturnType<typeof deleteTag>;
let repo: { diskPath: string; dir: string; projectId: number };
let commit: string;

beforeAll(async () => {
  t = await setUp("repo_delete_tag");
  del = deleteTag(t.deps);
  repo = await repositoryWith(t);
  commit = makeCommit(repo.dir);
});
afterAll(() => t?.close());

const request = (name: string, diskPath = repo.diskPath) => ({ diskPath, name, context: pushContext(repo.projectId) });
const eventsFor = async (ref: string) => (await outboxPayloads(t, repo.projectId)).filter((e) => e.payload.ref === ref);
const tagPushDeleted = (name: string, before: string) => ({
  ...expectedPushPayload(`refs/tags/${name}`, before, NULL_SHA, repo.projectId),
  object_kind: "tag_push",
  event_name: "tag_push",
});

describe("DeleteTag", () => {
  it("deletes a lightweight tag and records a tag_push event with after = null sha", async () => {
    gitIn(repo.dir, "update-ref", "refs/tags/light", commit);
    expect(await del(request("light"))).toEqual({});
    expect(gitOk(repo.dir, "rev-parse", "--verify", "refs/tags/light")).toBe(false);
    expect(await eventsFor("refs/tags/light")).toEqual([{ subject: Subjects.tagPush, payload: tagPushDeleted("light", commit) }]);
  });

  it("deletes an annotated tag; the event's before is the tag object", async () => {
    const object = annotatedTag(repo.dir, "release/1", commit, "One", "1767225600 +0000");
    await del(request("release/1"));
    expect(gitOk(repo.dir, "rev-parse", "--verify", "refs/tags/release/1")).toBe(false);
    expect((await eventsFor("refs/tags/release/1"))[0]?.payload).toMatchObject({ before: object, after: NULL_SHA, checkout_sha: null, commits: [] });
  });

  it("answers 404 Tag Not Found for missing tags (and names that are no tag), without an event", async () => {
    gitIn(repo.dir, "update-ref", "refs/heads/branch-only", commit);
    for (const name of ["nope", "branch-only", "HEAD"]) {
      await expect(del(request(name)), name).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Tag Not Found" } });
    }
    expect(await eventsFor("refs/tags/nope")).toEqual([]);
    await expect(del(request("x", newProject().diskPath))).rejects.toMatchObject({ body: { message: "404 Repository Not Found" } });
    await expect(del({ ...request("x"), context: null })).rejects.toMatchObject({ body: { error: "context is missing" } });
  });

  it("of two racing deletions one succeeds and the other finds no tag", async () => {
    gitIn(repo.dir, "update-ref", "refs/tags/race", commit);
    const results = await Promise.allSettled([del(request("race")), del(request("race"))]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await eventsFor("refs/tags/race")).toHaveLength(1);
  });
});
