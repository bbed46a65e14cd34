import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("UpdateProject", () => {
  it("updates fields for maintainers; visibility and path need Owner", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "Edit Me", initializeWithReadme: true });
    const maint = await f.user();
    await f.c.AddMember({ actor: owner, source: { kind: "project", idOrPath: String(p.id) }, userId: maint.userId, accessLevel: 40 });
    const up = await f.c.UpdateProject({ actor: maint, idOrPath: String(p.id), description: "new", topics: ["x"], topicsSet: true });
    expect(up).toMatchObject({ description: "new", topics: ["x"] });
    expect((await failure(f.c.UpdateProject({ actor: maint, idOrPath: String(p.id), visibility: "public" }))).status).toBe(403);
    expect((await f.c.UpdateProject({ actor: owner, idOrPath: String(p.id), visibility: "public", path: "edited" })).pathWithNamespace).toMatch(/\/edited$/);
    // The path change is announced once (project_rename, with the old path); other updates announce nothing.
    await f.c.UpdateProject({ actor: owner, idOrPath: String(p.id), description: "again", path: "edited" });
    const renames = (await f.deps.prisma.outboxEvent.findMany({ where: { subject: "quarry.identity.project_rename" } }))
      .map((e) => e.payload as Record<string, unknown>)
      .filter((e) => e.project_id === Number(p.id));
    expect(renames).toEqual([
      expect.objectContaining({
        event_name: "project_rename",
        path: "edited",
        path_with_namespace: p.pathWithNamespace.replace(/[^/]+$/, "edited"),
        old_path_with_namespace: p.pathWithNamespace,
      }),
    ]);
  });

  it("refuses a default branch that does not exist in a non-empty repository", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "Branchy", initializeWithReadme: true });
    expect((await failure(f.c.UpdateProject({ actor: owner, idOrPath: String(p.id), defaultBranch: "nope" }))).status).toBe(400);
    expect((await f.c.GetProject({ actor: owner, idOrPath: String(p.id) })).defaultBranch).toBe("main");
  });

  it("changes only the merge settings given, for maintainers, and keeps the rest", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "Merge Settings" });
    const maint = await f.user();
    const dev = await f.user();
    const src = { kind: "project", idOrPath: String(p.id) };
    await f.c.AddMember({ actor: owner, source: src, userId: maint.userId, accessLevel: 40 });
    await f.c.AddMember({ actor: owner, source: src, userId: dev.userId, accessLevel: 30 });
    const up = await f.c.UpdateProject({
      actor: maint,
      idOrPath: String(p.id),
      mergeSettings: {
        mergeMethod: "ff",
        squashOption: "always",
        onlyAllowMergeIfPipelineSucceeds: true,
        approvalsBeforeMerge: 2,
        resetApprovalsOnPush: false,
      },
    });
    expect(up.mergeSettings).toMatchObject({
      mergeMethod: "ff",
      squashOption: "always",
      onlyAllowMergeIfPipelineSucceeds: true,
      approvalsBeforeMerge: 2,
      resetApprovalsOnPush: false,
      removeSourceBranchAfterMerge: true,
      autocloseReferencedIssues: true,
    });
    const again = await f.c.UpdateProject({ actor: maint, idOrPath: String(p.id), mergeSettings: { mergeRequestsAuthorApproval: true } });
    expect(again.mergeSettings).toMatchObject({ mergeMethod: "ff", approvalsBeforeMerge: 2, mergeRequestsAuthorApproval: true });
    expect((await f.c.GetProject({ actor: dev, idOrPath: String(p.id) })).mergeSettings).toEqual(again.mergeSettings);
    expect((await failure(f.c.UpdateProject({ actor: dev, idOrPath: String(p.id), mergeSettings: { mergeMethod: "merge" } }))).status).toBe(403);
  });

  it("refuses unknown merge methods and squash options like GitLab's params, and writes nothing", async () => {
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "Bad Settings" });
    const id = String(p.id);
    expect(await failure(f.c.UpdateProject({ actor: owner, idOrPath: id, description: "x", mergeSettings: { mergeMethod: "squash" } }))).toEqual({
      status: 400,
      body: { error: "merge_method does not have a valid value" },
    });
    expect(await failure(f.c.UpdateProject({ actor: owner, idOrPath: id, mergeSettings: { squashOption: "sometimes" } }))).toEqual({
      status: 400,
      body: { error: "squash_option does not have a valid value" },
    });
    expect((await failure(f.c.UpdateProject({ actor: owner, idOrPath: id, mergeSettings: { approvalsBeforeMerge: -1 } }))).body).toEqual({
      message: { approvals_before_merge: ["must be greater than or equal to 0"] },
    });
    expect((await failure(f.c.UpdateProject({ actor: owner, idOrPath: id, mergeSettings: { mergeCommitTemplate: "x".repeat(501) } }))).body).toEqual({
      message: { "project_setting.merge_commit_template": ["is too long (maximum is 500 characters)"] },
    });
    const now = await f.c.GetProject({ actor: owner, idOrPath: id });
    expect(now.description).toBe("");
    expect(now.mergeSettings).toMatchObject({ mergeMethod: "merge", squashOption: "default_off", approvalsBeforeMerge: 0, mergeCommitTemplate: "" });
  });
});
