// Repository statistics: bytes on disk and the default branch's commit count, published through
// the outbox after the project's pushes and wiki writes.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Subjects, type PushEvent, type RepositoryStatisticsEvent } from "@quarry/bus";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, makeCommit, outboxPayloads, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { wikiDir } from "../wiki/wiki.ts";
import { directorySize, headCommitCount, measureProject, publishRepositoryStatistics, subscribeToRepositoryChanges } from "./repository-statistics.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("repo_statistics");
});
afterAll(() => t?.close());

describe("repository statistics", () => {
  it("sum the bytes of the files under a directory (0 when it is missing)", async () => {
    const dir = path.join(t.sandbox, "sizes");
    mkdirSync(path.join(dir, "a", "b"), { recursive: true });
    writeFileSync(path.join(dir, "one"), "12345");
    writeFileSync(path.join(dir, "a", "b", "two"), "123");
    expect(await directorySize(dir)).toBe(8);
    expect(await directorySize(path.join(t.sandbox, "missing"))).toBe(0);
  });

  it("count the commits of HEAD's branch, 0 in an empty repository", async () => {
    const repo = await repositoryWith(t);
    expect(await headCommitCount(repo.dir)).toBe(0);
    const first = makeCommit(repo.dir, { message: "one" });
    const second = makeCommit(repo.dir, { message: "two", parents: [first] });
    gitIn(repo.dir, "update-ref", "refs/heads/main", second);
    // Another branch's commits are not counted (GitLab counts the root ref).
    gitIn(repo.dir, "update-ref", "refs/heads/other", makeCommit(repo.dir, { message: "three", parents: [second] }));
    expect(await headCommitCount(repo.dir)).toBe(2);
  });

  it("measure the repository and its wiki, and publish the figures through the outbox", async () => {
    const repo = await repositoryWith(t);
    gitIn(repo.dir, "update-ref", "refs/heads/main", makeCommit(repo.dir, { message: "one" }));
    const wiki = wikiDir(t.deps, repo.diskPath).dir;
    mkdirSync(wiki, { recursive: true });
    writeFileSync(path.join(wiki, "HEAD"), "ref: refs/heads/main\n");
    const figures = await measureProject(t.deps, repo.projectId);
    expect(figures).toMatchObject({ project_id: repo.projectId, commit_count: 1, wiki_size: "ref: refs/heads/main\n".length });
    expect(figures!.repository_size).toBe(await directorySize(repo.dir));
    expect(figures!.repository_size).toBeGreaterThan(0);
    await publishRepositoryStatistics(t.deps, repo.projectId);
    const rows = (await outboxPayloads(t, repo.projectId)).filter((r) => r.subject === Subjects.repositoryStatistics);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload).toMatchObject({ project_id: repo.projectId, commit_count: 1, repository_size: figures!.repository_size });
  });

  it("publish nothing for a project without a repository", async () => {
    expect(await measureProject(t.deps, 999_999)).toBeNull();
  });

  it("follow the project's push events on the bus", async () => {
    const repo = await repositoryWith(t);
    gitIn(repo.dir, "update-ref", "refs/heads/main", makeCommit(repo.dir, { message: "one" }));
    const seen: RepositoryStatisticsEvent[] = [];
    const subs = [
      ...(await subscribeToRepositoryChanges(t.deps, t.deps.bus)),
      await t.deps.bus.subscribe<RepositoryStatisticsEvent>(Subjects.repositoryStatistics, async (m) => void seen.push(m.data), { durable: "stats-test" }),
    ];
    try {
      await t.deps.bus.publish(Subjects.push, { event_id: "push-1", project_id: repo.projectId } as Partial<PushEvent>, { msgId: "push-1" });
      const event = await waitFor(() => seen.find((e) => e.project_id === repo.projectId));
      expect(event.commit_count).toBe(1);
    } finally {
      await Promise.all(subs.map((s) => s.unsubscribe()));
    }
  });
});
