import { describe, expect, it } from "vitest";
import type { HookDeps } from "../deps.ts";
import type { WebHook } from "../generated/prisma/client.ts";
import { buildTestSample } from "./test-sample.ts";

const commit = (id: string, title: string) => ({
  id,
  title,
  message: `${title}\n`,
  committedDate: "2026-01-02T03:04:05Z",
  authorName: "A",
  authorEmail: "a@x.test",
});
const project = {
  id: "7",
  name: "Deep",
  description: "",
  visibility: "internal",
  defaultBranch: "main",
  pathWithNamespace: "top/sub/deep",
  namespace: { name: "Sub" },
  diskPath: "@hashed/7.git",
  ciConfigPath: "",
};

/** identity and repo stand-ins that record what hook-service asked. */
function fakeDeps(o: { projects?: unknown[]; commits?: unknown[] } = {}) {
  const calls: string[] = [];
  const deps = {
    settings: { instanceUrl: "https://quarry.test/" },
    identity: {
      GetProject: async (req: { idOrPath: string; actor: unknown }) => {
        calls.push(`GetProject ${req.idOrPath} ${JSON.stringify(req.actor)}`);
        return project;
      },
      ListProjects: async (req: { namespaceId: number; includeSubgroups: boolean }) => {
        calls.push(`ListProjects ${req.namespaceId} ${req.includeSubgroups}`);
        return { projects: o.projects ?? [project] };
      },
      GetUser: async (req: { id: number }) => {
        calls.push(`GetUser ${req.id}`);
        return { name: "Ada", username: "ada", email: "ada@x.test" };
      },
    },
    repo: {
      ListCommits: async (req: { diskPath: string; refName: string; perPage: number }) => {
        calls.push(`ListCommits ${req.diskPath} ${req.refName} ${req.perPage}`);
        return { commits: (o.commits ?? [commit("c3", "third"), commit("c2", "second"), commit("c1", "first")]).map((c) => ({ commit: c })) };
      },
      ListTags: async () => {
        calls.push("ListTags");
        return { tags: [{ name: "v1" }] };
      },
    },
  } as unknown as Pick<HookDeps, "identity" | "repo" | "settings">;
  return { deps, calls };
}

const projectHook = { projectId: 7, groupId: null } as WebHook;
const groupHook = { projectId: null, groupId: 3 } as WebHook;
const ada = { userId: 5, isAdmin: false };

describe("test delivery samples", () => {
  it("push: the project's last three commits on its default branch, as the requester", async () => {
    const { deps, calls } = fakeDeps();
    const sample = (await buildTestSample(deps, projectHook, "push_events", ada)) as { commits: { id: string }[] };
    expect(sample).toMatchObject({
      object_kind: "push",
      ref: "refs/heads/main",
      before: "c1",
      after: "c3",
      checkout_sha: "c3",
      user_id: 5,
      user_name: "Ada",
      user_username: "ada",
      user_email: "ada@x.test",
      project_id: 7,
      project: {
        name: "Deep",
        web_url: "https://quarry.test/top/sub/deep",
        git_ssh_url: "git@quarry.test:top/sub/deep.git",
        namespace: "Sub",
        visibility_level: 10,
      },
      total_commits_count: 3,
    });
    expect(sample.commits.map((c: { id: string }) => c.id)).toEqual(["c3", "c2", "c1"]);
    expect(calls).toEqual(['GetProject 7 {"userId":5,"isAdmin":false}', "ListCommits @hashed/7.git main 3", "GetUser 5"]);
  });

  it("tag push: the newest tag; a group hook: the first project of the group and its subgroups", async () => {
    const { deps, calls } = fakeDeps();
    const sample = (await buildTestSample(deps, groupHook, "tag_push_events", ada)) as Record<string, unknown>;
    expect(sample).toMatchObject({ object_kind: "tag_push", ref: "refs/tags/v1", project_id: 7 });
    expect(calls[0]).toBe("ListProjects 3 true");
  });

  it("422 without a commit or, for a group hook, without a project; {} for other triggers", async () => {
    const err = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: { message?: string; code?: number }) => e,
      );
    const noCommit = await err(buildTestSample(fakeDeps({ commits: [] }).deps, projectHook, "push_events", ada));
    expect(noCommit).toMatchObject({ code: 9 }); // FAILED_PRECONDITION, HTTP 422
    expect(String(noCommit?.message)).toContain("Ensure the project has at least one commit.");
    const noProject = await err(buildTestSample(fakeDeps({ projects: [] }).deps, groupHook, "push_events", ada));
    expect(String(noProject?.message)).toContain("Ensure the group has a project with commits.");
    const { deps, calls } = fakeDeps();
    expect(await buildTestSample(deps, projectHook, "note_events", ada)).toEqual({});
    expect(calls).toEqual([]);
  });
});
