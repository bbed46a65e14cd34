import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskPathFor } from "./convert.ts";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("CreateProject", () => {
  it("creates the project and its repository, with a README commit on the default branch", async () => {
    const u = await f.user("kim");
    const p = await f.c.CreateProject({ actor: u, name: "My Project", description: "about", initializeWithReadme: true, defaultBranch: "trunk" });
    expect(p).toMatchObject({ path: "my-project", pathWithNamespace: "kim/my-project", defaultBranch: "trunk", visibility: "private", projectAccessLevel: 50 });
    expect(p.diskPath).toMatch(/^@hashed\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.git$/);
    const dir = path.join(f.storageRoot, p.diskPath);
    const readme = execFileSync("git", ["--git-dir", dir, "show", "trunk:README.md"], { encoding: "utf8" });
    expect(readme).toContain("# My Project");
    expect(p.diskPath).toBe(diskPathFor(Number(p.id)));
  });

  it("puts projects into groups for members with enough access, and enforces group visibility", async () => {
    const owner = await f.user();
    const g = await f.c.CreateGroup({ actor: owner, name: "Team", path: "team", visibility: "internal" });
    const reporter = await f.user();
    await f.c.AddMember({ actor: owner, source: { kind: "group", idOrPath: "team" }, userId: reporter.userId, accessLevel: 20 });
    expect((await failure(f.c.CreateProject({ actor: reporter, name: "x", namespaceId: g.id }))).status).toBe(403);
    expect((await failure(f.c.CreateProject({ actor: owner, name: "x", namespaceId: g.id, visibility: "public" }))).status).toBe(400);
    const p = await f.c.CreateProject({ actor: owner, name: "x", namespaceId: g.id });
    expect(p).toMatchObject({ pathWithNamespace: "team/x", groupAccessLevel: 50 });
  });

  it("answers duplicates with GitLab's message and leaves no second row or repository", async () => {
    const u = await f.user();
    await f.c.CreateProject({ actor: u, name: "dup" });
    const before = await f.deps.prisma.project.count();
    expect(await failure(f.c.CreateProject({ actor: u, name: "dup" }))).toEqual({
      status: 400,
      body: { message: { name: ["has already been taken"], path: ["has already been taken"] } },
    });
    expect(await f.deps.prisma.project.count()).toBe(before);
  });

  it("rolls back the project when the repository cannot be created", async () => {
    const u = await f.user();
    const nextId = (await f.deps.prisma.$queryRaw<{ last_value: bigint }[]>`SELECT last_value FROM projects_id_seq`)[0]!.last_value + 1n;
    // Occupy the repository path with a file so that git init must fail.
    const blocked = path.join(f.storageRoot, diskPathFor(Number(nextId)));
    fs.mkdirSync(path.dirname(blocked), { recursive: true });
    fs.writeFileSync(blocked, "not a directory");
    const err = await failure(f.c.CreateProject({ actor: u, name: "doomed" }));
    expect(err.status).toBeGreaterThanOrEqual(500);
    expect(await f.deps.prisma.project.count({ where: { name: "doomed" } })).toBe(0);
    fs.rmSync(blocked);
  });

  it("answers GitLab's default merge settings, and takes settings given at creation", async () => {
    const u = await f.user();
    const plain = await f.c.CreateProject({ actor: u, name: "Defaults" });
    expect(plain.mergeSettings).toEqual({
      mergeMethod: "merge",
      onlyAllowMergeIfPipelineSucceeds: false,
      allowMergeOnSkippedPipeline: false,
      onlyAllowMergeIfAllDiscussionsAreResolved: false,
      removeSourceBranchAfterMerge: true,
      squashOption: "default_off",
      resetApprovalsOnPush: true,
      mergeCommitTemplate: "",
      squashCommitTemplate: "",
      approvalsBeforeMerge: 0,
      autocloseReferencedIssues: true,
      mergeRequestsAuthorApproval: false,
      mergeRequestsDisableCommittersApproval: false,
    });
    const set = await f.c.CreateProject({
      actor: u,
      name: "Preset",
      mergeSettings: { mergeMethod: "rebase_merge", onlyAllowMergeIfAllDiscussionsAreResolved: true, squashCommitTemplate: "%{title}" },
    });
    expect(set.mergeSettings).toMatchObject({ mergeMethod: "rebase_merge", onlyAllowMergeIfAllDiscussionsAreResolved: true, squashCommitTemplate: "%{title}" });
    const listed = await f.c.ListProjects({ actor: u, owned: true, page: { page: 1, perPage: 20 } });
    expect(listed.projects.find((x) => x.id === set.id)?.mergeSettings?.mergeMethod).toBe("rebase_merge");
    expect(await failure(f.c.CreateProject({ actor: u, name: "Nope", mergeSettings: { mergeMethod: "octopus" } }))).toEqual({
      status: 400,
      body: { error: "merge_method does not have a valid value" },
    });
    expect((await f.c.ListProjects({ actor: u, owned: true, search: "Nope", page: { page: 1, perPage: 20 } })).projects).toEqual([]);
  });
});
