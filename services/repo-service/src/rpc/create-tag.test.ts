import { Subjects } from "@quarry/bus";
import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectedPushPayload,
  gitIn,
  makeCommit,
  newProject,
  outboxPayloads,
  pushContext,
  repositoryWith,
  setUp,
  type TestContext,
} from "../../test/support.ts";
import { readCommit, type Commit } from "../git/commits.ts";
import { createTag } from "./create-tag.ts";
import { NULL_SHA } from "../git/git.ts";

let t: TestContext;
let create: ReturnType<typeof createTag>;
let repo: { diskPath: string; dir: string; projectId: number };
let base: string;
let tip: string;

beforeAll(async () => {
  t = await setUp("repo_create_tag");
  create = createTag(t.deps);
  repo = await repositoryWith(t);
  base = makeCommit(repo.dir, { message: "Base\n" });
  tip = makeCommit(repo.dir, { message: "Tip\n", parents: [base] });
  gitIn(repo.dir, "update-ref", "refs/heads/main", tip);
});
afterAll(() => t?.close());

const request = (name: string, ref: string, message = "", o: { diskPath?: string } = {}) => ({
  diskPath: o.diskPath ?? repo.diskPath,
  name,
  ref,
  message,
  context: pushContext(repo.projectId),
});
const eventsFor = async (ref: string) => (await outboxPayloads(t, repo.projectId)).filter((e) => e.payload.ref === ref);

/** GitLab's tag_push payload for a created tag: the tagged commit is the one commit. */
function expectedTagPush(name: string, after: string, commit: Commit, message: string | null) {
  return {
    ...expectedPushPayload(`refs/tags/${name}`, NULL_SHA, after, repo.projectId),
    object_kind: "tag_push",
    event_name: "tag_push",
    checkout_sha: commit.id,
    message,
    total_commits_count: 1,
    commits: [
      {
        id: commit.id,
        message: commit.message,
        title: commit.title,
        timestamp: commit.committedDate,
        url: `http://quarry.example/ada/my-project/-/commit/${commit.id}`,
        author: { name: commit.authorName, email: commit.authorEmail },
        added: [],
        modified: [],
        removed: [],
      },
    ],
  };
}

const refused = (message: string) => ({ code: status.FAILED_PRECONDITION, httpStatus: 405, body: { message } });

describe("CreateTag", () => {
  it("creates a lightweight tag at a branch's head and records GitLab's tag_push event", async () => {
    const tag = await create(request("v1", "main"));
    const commit = await readCommit(repo.dir, tip);
    expect(tag).toEqual({ name: "v1", annotated: false, message: "", target: tip, createdAt: "", commit });
    expect(gitIn(repo.dir, "rev-parse", "refs/tags/v1")).toBe(tip);
    expect(await eventsFor("refs/tags/v1")).toEqual([{ subject: Subjects.tagPush, payload: expectedTagPush("v1", tip, commit, null) }]);
  });

  it("creates an annotated tag with the acting user as tagger and the stripped message", async () => {
    const before = Math.floor(Date.now() / 1000);
    const tag = await create(request("v2", base, "  Release 2\n\nNotes.\n "));
    const object = gitIn(repo.dir, "rev-parse", "refs/tags/v2");
    expect(gitIn(repo.dir, "cat-file", "-t", object)).toBe("tag");
    expect(tag).toMatchObject({ name: "v2", annotated: true, message: "Release 2\n\nNotes.", target: object, commit: { id: base } });
    const raw = gitIn(repo.dir, "cat-file", "tag", object);
    expect(raw).toMatch(new RegExp(`^object ${base}\ntype commit\ntag v2\ntagger Ada Lovelace <ada@example.com> \\d+ \\+0000\n\nRelease 2\n\nNotes.$`));
    const created = Date.parse(tag.createdAt) / 1000;
    expect(created).toBeGreaterThanOrEqual(before);
    expect(tag.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    const commit = await readCommit(repo.dir, base);
    expect(await eventsFor("refs/tags/v2")).toEqual([{ subject: Subjects.tagPush, payload: expectedTagPush("v2", object, commit, "Release 2\n\nNotes.") }]);
  });

  it("tags what a tag, a full or an abbreviated sha points at; a blank message makes a lightweight tag", async () => {
    expect((await create(request("from-tag", "v2"))).target).toBe(base);
    expect((await create(request("from-sha", base))).target).toBe(base);
    const blank = await create(request("from-short", tip.slice(0, 10), " \n "));
    expect(blank).toMatchObject({ annotated: false, target: tip, message: "" });
  });

  it("refuses invalid names with 405 Tag name invalid", async () => {
    for (const name of ["bad name", "a..b", "refs/tags/x", "refs/heads/x", "-x", "HEAD", "x.lock", "x~1", "a:b"]) {
      await expect(create(request(name, "main")), name).rejects.toMatchObject(refused("Tag name invalid"));
    }
  });

  it("refuses unknown targets and existing tags with GitLab's messages, writing no event", async () => {
    await expect(create(request("nope", "does-not-exist"))).rejects.toMatchObject(refused("Target does-not-exist is invalid"));
    await expect(create(request("v1", base, "again"))).rejects.toMatchObject(refused("Tag v1 already exists"));
    expect(gitIn(repo.dir, "rev-parse", "refs/tags/v1")).toBe(tip);
    expect(await eventsFor("refs/tags/v1")).toHaveLength(1);
    expect(await eventsFor("refs/tags/nope")).toEqual([]);
  });

  it("refuses a tag below an existing one with git's reason", async () => {
    await create(request("dir", "main"));
    await expect(create(request("dir/sub", "main"))).rejects.toMatchObject({
      httpStatus: 405,
      body: { message: expect.stringMatching(/^Failed to create tag 'dir\/sub': .+/) as unknown as string },
    });
    expect(await eventsFor("refs/tags/dir/sub")).toEqual([]);
  });

  it("lets exactly one of two racing creators win", async () => {
    const results = await Promise.allSettled([create(request("race", base)), create(request("race", tip, "annotated"))]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(lost.map((r) => (r.reason as { body?: unknown }).body)).toEqual([{ message: "Tag race already exists" }]);
    const events = await eventsFor("refs/tags/race");
    expect(events).toHaveLength(1);
    expect(events[0]?.payload.after).toBe(gitIn(repo.dir, "rev-parse", "refs/tags/race"));
  });

  it("refuses an empty name or ref with GitLab's messages; requires the event context; 404 for a missing repository", async () => {
    await expect(create(request("", "main"))).rejects.toMatchObject(refused("Tag name invalid"));
    await expect(create(request("x", " "))).rejects.toMatchObject(refused("Target is empty"));
    await expect(create({ ...request("x", "main"), context: null })).rejects.toMatchObject({ body: { error: "context is missing" } });
    await expect(create(request("x", "main", "", { diskPath: newProject().diskPath }))).rejects.toMatchObject({ code: status.NOT_FOUND });
  });
});
