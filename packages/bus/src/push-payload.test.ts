import { describe, expect, it } from "vitest";
import { Subjects } from "./events.ts";
import { buildPushEvent, PUSH_COMMITS_LIMIT, pushSubject, type PushPayloadCommit, type PushPayloadContext } from "./push-payload.ts";

const NULL_SHA = "0".repeat(40);

const pushContext = (projectId: number, overrides: Partial<PushPayloadContext> = {}): PushPayloadContext => ({
  projectId,
  projectName: "My Project",
  projectDescription: "",
  pathWithNamespace: "ada/my-project",
  namespaceName: "Ada Lovelace",
  visibilityLevel: 20,
  defaultBranch: "main",
  webUrl: "http://quarry.example/ada/my-project",
  httpUrl: "http://quarry.example/ada/my-project.git",
  sshUrl: "git@quarry.example:ada/my-project.git",
  ciConfigPath: "",
  userId: 1,
  userName: "Ada Lovelace",
  userUsername: "ada",
  userEmail: "ada@example.com",
  userAvatar: "",
  ...overrides,
});

const commit = (n: number): PushPayloadCommit => ({
  id: String(n).padStart(40, "a"),
  title: `Commit ${n}`,
  message: `Commit ${n}\n\nBody\n`,
  authorName: "Ada",
  authorEmail: "ada@example.com",
  committedDate: "2026-11-21T11:00:00+01:00",
});

describe("buildPushEvent", () => {
  it("describes pushed commits with their changed paths, GitLab's way", () => {
    const event = buildPushEvent({
      context: pushContext(7, { projectDescription: "Things", ciConfigPath: ".ci.yml", userAvatar: "http://a/x.png" }),
      before: "b".repeat(40),
      after: commit(2).id,
      ref: "refs/heads/main",
      commits: [
        { commit: commit(1), added: ["new.txt"] },
        { commit: commit(2), modified: ["a.txt"], removed: ["b.txt"] },
      ],
    });
    expect(event).toMatchObject({
      object_kind: "push",
      checkout_sha: commit(2).id,
      user_avatar: "http://a/x.png",
      project: { description: "Things", ci_config_path: ".ci.yml" },
      repository: { description: "Things" },
      total_commits_count: 2,
    });
    expect(event.commits).toEqual([
      {
        id: commit(1).id,
        message: "Commit 1\n\nBody\n",
        title: "Commit 1",
        timestamp: "2026-11-21T11:00:00+01:00",
        url: `http://quarry.example/ada/my-project/-/commit/${commit(1).id}`,
        author: { name: "Ada", email: "ada@example.com" },
        added: ["new.txt"],
        modified: [],
        removed: [],
      },
      expect.objectContaining({ id: commit(2).id, added: [], modified: ["a.txt"], removed: ["b.txt"] }),
    ]);
  });

  it(`keeps the last ${PUSH_COMMITS_LIMIT} commits and counts them all`, () => {
    const commits = Array.from({ length: 30 }, (_, i) => ({ commit: commit(i) }));
    const event = buildPushEvent({ context: pushContext(7), before: NULL_SHA, after: commit(29).id, ref: "refs/heads/x", commits, totalCommitsCount: 45 });
    expect(event.commits.map((c) => c.title)).toEqual(Array.from({ length: 20 }, (_, i) => `Commit ${i + 10}`));
    expect(event.total_commits_count).toBe(45);
  });

  it("sends tag pushes as tag_push with their message, and deletions without checkout sha", () => {
    expect(pushSubject("refs/tags/v1")).toBe(Subjects.tagPush);
    expect(pushSubject("refs/heads/v1")).toBe(Subjects.push);
    const tag = buildPushEvent({
      context: pushContext(7),
      before: NULL_SHA,
      after: "c".repeat(40),
      ref: "refs/tags/v1",
      checkoutSha: "d".repeat(40),
      message: "Release",
    });
    expect(tag).toMatchObject({ object_kind: "tag_push", event_name: "tag_push", checkout_sha: "d".repeat(40), message: "Release" });
    const deleted = buildPushEvent({ context: pushContext(7), before: "c".repeat(40), after: NULL_SHA, ref: "refs/heads/x" });
    expect(deleted).toMatchObject({ checkout_sha: null, commits: [], total_commits_count: 0, message: null });
  });
});
