import { Subjects } from "@quarry/bus";
import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
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
import type { RepoDeps } from "../deps.ts";
import { readCommit } from "../git/commits.ts";
import { createBranch } from "./create-branch.ts";
import { protectBranch } from "./protect-branch.ts";
import { NULL_SHA } from "../git/git.ts";

/** The id of the empty blob. */
const EMPTY_BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";

let t: TestContext;
let create: ReturnType<typeof createBranch>;
let repo: { diskPath: string; dir: string; projectId: number };
let base: string;
let tip: string;

beforeAll(async () => {
  t = await setUp("repo_create_branch");
  create = createBranch(t.deps);
  repo = await repositoryWith(t);
  base = makeCommit(repo.dir, { message: "Base\n" });
  tip = makeCommit(repo.dir, { message: "Tip\n", parents: [base] });
  gitIn(repo.dir, "update-ref", "refs/heads/main", tip);
  gitIn(repo.dir, "tag", "-a", "-m", "Version 1", "v1", base);
});
afterAll(() => t?.close());

const request = (name: string, ref: string, o: { diskPath?: string; projectId?: number } = {}) => ({
  diskPath: o.diskPath ?? repo.diskPath,
  name,
  ref,
  context: pushContext(o.projectId ?? repo.projectId),
});
const eventsFor = async (ref: string) => (await outboxPayloads(t, repo.projectId)).filter((e) => e.payload.ref === ref);

describe("CreateBranch", () => {
  it("marks the push event ref_protected when a rule matches, and shows the branch protected", async () => {
    await protectBranch(t.deps)({ projectId: repo.projectId, name: "stable-*", allowForcePush: false, codeOwnerApprovalRequired: false });
    const branch = await create(request("stable-1", "main"));
    expect(branch).toMatchObject({ protected: true, canPush: true });
    const [event] = await eventsFor("refs/heads/stable-1");
    expect(event?.payload).toMatchObject({ ref_protected: true });
  });

  it("creates the branch at a branch's head and records GitLab's push event", async () => {
    const branch = await create(request("feature", "main"));
    expect(branch).toEqual({
      name: "feature",
      commit: await readCommit(repo.dir, tip),
      merged: false,
      default: false,
      protected: false,
      developersCanPush: false,
      developersCanMerge: false,
      canPush: true,
      canMerge: true,
    });
    expect(gitIn(repo.dir, "rev-parse", "refs/heads/feature")).toBe(tip);

    const events = await eventsFor("refs/heads/feature");
    expect(events).toEqual([{ subject: Subjects.push, payload: expectedPushPayload("refs/heads/feature", NULL_SHA, tip, repo.projectId) }]);
  });

  it("creates from a tag (peeled to its commit) and from a full or abbreviated sha", async () => {
    expect(await create(request("from-tag", "v1"))).toMatchObject({ name: "from-tag", commit: { id: base }, merged: true });
    expect(gitIn(repo.dir, "rev-parse", "refs/heads/from-tag")).toBe(base);
    expect((await create(request("from-sha", base))).commit?.id).toBe(base);
    expect((await create(request("from-short", tip.slice(0, 10)))).commit?.id).toBe(tip);
    expect((await eventsFor("refs/heads/from-tag"))[0]?.payload).toMatchObject({ after: base, checkout_sha: base });
  });

  it("refuses an existing branch without writing an event", async () => {
    await create(request("taken", "main"));
    await expect(create(request("taken", base))).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, body: { message: "Branch already exists" } });
    expect(gitIn(repo.dir, "rev-parse", "refs/heads/taken")).toBe(tip);
    expect(await eventsFor("refs/heads/taken")).toHaveLength(1);
  });

  it("lets exactly one of two racing creators win", async () => {
    const results = await Promise.allSettled([create(request("race", base)), create(request("race", tip))]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost.map((r) => (r.reason as { body?: unknown }).body)).toEqual([{ message: "Branch already exists" }]);
    const events = await eventsFor("refs/heads/race");
    expect(events).toHaveLength(1);
    expect(events[0]?.payload.after).toBe(gitIn(repo.dir, "rev-parse", "refs/heads/race"));
  });

  it.each([["a..b"], ["with space"], ["-x"], ["refs/heads/x"], ["HEAD"], ["x.lock"], ["a~1"], ["@{-1}"], ["a:b"], ["trailing/"], ["tab\there"]])(
    "refuses the branch name %j",
    async (name) => {
      await expect(create(request(name, "main"))).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, body: { message: "Branch name is invalid" } });
    },
  );

  it("refuses a ref that resolves to no commit", async () => {
    for (const ref of ["nope", "0".repeat(40), `${tip}^{tree}`, "main..side", "--all"]) {
      await expect(create(request("from-nowhere", ref))).rejects.toMatchObject({
        code: status.INVALID_ARGUMENT,
        body: { message: `Invalid reference name: ${ref}` },
      });
    }
    expect(gitOk(repo.dir, "rev-parse", "--verify", "refs/heads/from-nowhere")).toBe(false);
  });

  it("in an empty repository first commits an empty README.md to the default branch, with its push event", async () => {
    const empty = await repositoryWith(t);
    const branch = await create(request("feature", "main", empty));
    const head = gitIn(empty.dir, "rev-parse", "refs/heads/main");
    expect(gitIn(empty.dir, "rev-parse", "refs/heads/feature")).toBe(head);
    expect(branch).toMatchObject({
      name: "feature",
      default: false,
      merged: false,
      commit: { id: head, title: "Add README.md", message: "Add README.md", parentIds: [] },
    });
    expect(gitIn(empty.dir, "cat-file", "-p", head)).toMatch(/^author Ada Lovelace <ada@example\.com> \d+ [+-]\d{4}$/m);
    expect(gitIn(empty.dir, "cat-file", "-p", head)).toMatch(/^committer Ada Lovelace <ada@example\.com> \d+ [+-]\d{4}$/m);
    expect(gitIn(empty.dir, "ls-tree", "-r", "main")).toBe(`100644 blob ${EMPTY_BLOB}\tREADME.md`);
    expect(gitIn(empty.dir, "fsck", "--strict", "--no-dangling")).toBe("");

    // The default branch's push event carries the README commit; the new branch's carries none.
    const events = (await outboxPayloads(t, empty.projectId)).map((e) => e.payload);
    expect(events.map((e) => e.ref)).toEqual(["refs/heads/main", "refs/heads/feature"]);
    expect(events[0]).toMatchObject({ before: NULL_SHA, after: head, checkout_sha: head, total_commits_count: 1 });
    expect(events[0]?.commits).toEqual([expect.objectContaining({ id: head, message: "Add README.md", added: ["README.md"], modified: [], removed: [] })]);
    expect(events[1]).toMatchObject({ before: NULL_SHA, after: head, total_commits_count: 0 });
  });

  it("in an empty repository takes the default branch's full name or HEAD, and the project's default branch", async () => {
    const viaHead = await repositoryWith(t);
    expect((await create(request("a", "HEAD", viaHead))).commit).toMatchObject({ title: "Add README.md" });
    const viaFullName = await repositoryWith(t);
    expect((await create(request("b", "refs/heads/main", viaFullName))).commit).toMatchObject({ title: "Add README.md" });
    const develop = await repositoryWith(t, "develop");
    const branch = await create({ ...request("c", "develop", develop), context: pushContext(develop.projectId, { defaultBranch: "develop" }) });
    expect(branch.commit?.id).toBe(gitIn(develop.dir, "rev-parse", "refs/heads/develop"));
  });

  it("in an empty repository refuses any other ref without writing anything", async () => {
    const empty = await repositoryWith(t);
    for (const ref of ["other", "v1", "0".repeat(40)]) {
      await expect(create(request("x", ref, empty))).rejects.toMatchObject({
        code: status.INVALID_ARGUMENT,
        body: { message: `Invalid reference name: ${ref}` },
      });
    }
    expect(gitIn(empty.dir, "for-each-ref")).toBe("");
    expect(await outboxPayloads(t, empty.projectId)).toEqual([]);
  });

  it("in an empty repository, creating the default branch itself leaves it with the README, like GitLab", async () => {
    const empty = await repositoryWith(t);
    await expect(create(request("main", "main", empty))).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, body: { message: "Branch already exists" } });
    expect(gitIn(empty.dir, "log", "--format=%s", "main")).toBe("Add README.md");
  });

  it("in an empty repository, of two racing creators both get their branch on one README commit", async () => {
    const empty = await repositoryWith(t);
    const [a, b] = await Promise.all([create(request("one", "main", empty)), create(request("two", "main", empty))]);
    const head = gitIn(empty.dir, "rev-parse", "refs/heads/main");
    expect([a.commit?.id, b.commit?.id]).toEqual([head, head]);
    const events = (await outboxPayloads(t, empty.projectId)).map((e) => e.payload.ref);
    expect(events.filter((r) => r === "refs/heads/main")).toHaveLength(1);
  });

  it("reports a name clashing with an existing directory-like branch", async () => {
    await create(request("dir", "main"));
    await expect(create(request("dir/sub", "main"))).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      body: { message: expect.stringMatching(/^Failed to create branch 'dir\/sub': .*refs\/heads\/dir/) },
    });
  });

  it("moves the ref back when the event cannot be recorded", async () => {
    // The outbox insert fails inside the transaction.
    const insertFails = withTransaction(t.deps, async (fn, tx) =>
      fn(new Proxy(tx, { get: (o, k) => (k === "$executeRawUnsafe" ? () => Promise.reject(new Error("insert failed")) : Reflect.get(o, k)) })),
    );
    await expect(createBranch(insertFails)(request("no-event", "main"))).rejects.toThrow("insert failed");
    expect(gitOk(repo.dir, "rev-parse", "--verify", "refs/heads/no-event")).toBe(false);

    // The commit fails after the callback finished: the insert is rolled back, the ref deleted again.
    const commitFails = withTransaction(t.deps, async (fn, tx) => {
      await fn(tx);
      throw new Error("commit failed");
    });
    await expect(createBranch(commitFails)(request("no-commit", "main"))).rejects.toThrow("commit failed");
    expect(gitOk(repo.dir, "rev-parse", "--verify", "refs/heads/no-commit")).toBe(false);
    expect(await eventsFor("refs/heads/no-event")).toEqual([]);
    expect(await eventsFor("refs/heads/no-commit")).toEqual([]);
  });

  it("needs a name, a ref, the event context and the repository", async () => {
    await expect(create({ ...request("", "main") })).rejects.toMatchObject({ body: { error: "branch is missing" } });
    await expect(create({ ...request("x", "") })).rejects.toMatchObject({ body: { error: "ref is missing" } });
    await expect(create({ ...request("x", "main"), context: null })).rejects.toMatchObject({ body: { error: "context is missing" } });
    await expect(create(request("x", "main", { diskPath: newProject().diskPath }))).rejects.toMatchObject({
      code: status.NOT_FOUND,
      body: { message: "404 Repository Not Found" },
    });
  });
});

/** deps whose prisma.$transaction runs `wrap` inside a real transaction. */
function withTransaction(deps: RepoDeps, wrap: (fn: (tx: unknown) => Promise<unknown>, tx: object) => Promise<unknown>): RepoDeps {
  const prisma = new Proxy(deps.prisma, {
    get(target, key) {
      if (key !== "$transaction") return Reflect.get(target, key);
      return (fn: (tx: unknown) => Promise<unknown>, opts: object) => target.$transaction((tx) => wrap(fn, tx), opts);
    },
  });
  return { ...deps, prisma };
}
