import { Subjects } from "@quarry/bus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => {
  f = await identityFixture();
});
afterAll(() => f?.close());

const settingsOf = (s: { settingsJson: string }) => JSON.parse(s.settingsJson) as Record<string, unknown>;

describe("application settings", () => {
  it("are GitLab's defaults until changed; changes get a new revision and are published", async () => {
    const published: { settings: Record<string, unknown>; revision: number }[] = [];
    const sub = await f.bus.subscribe<(typeof published)[number]>(Subjects.applicationSettings, async (m) => void published.push(m.data), {
      durable: "settings-test",
    });
    const before = await f.c.GetApplicationSettings({ actor: f.admin });
    expect(settingsOf(before)).toMatchObject({ default_project_visibility: "private", notes_create_limit: 300, default_branch_protection: 2 });
    const after = await f.c.UpdateApplicationSettings({ actor: f.admin, changesJson: JSON.stringify({ notes_create_limit: 5, unknown_setting: true }) });
    expect(Number(after.revision)).toBe(Number(before.revision) + 1);
    expect(settingsOf(after)).toMatchObject({ notes_create_limit: 5, default_project_visibility: "private" });
    expect(settingsOf(after)).not.toHaveProperty("unknown_setting");
    await expect.poll(() => published.at(-1)).toMatchObject({ revision: Number(after.revision), settings: { notes_create_limit: 5 } });
    // A later change keeps the earlier one.
    const again = await f.c.UpdateApplicationSettings({ actor: f.admin, changesJson: JSON.stringify({ default_branch_name: "trunk" }) });
    expect(settingsOf(again)).toMatchObject({ notes_create_limit: 5, default_branch_name: "trunk" });
    await sub.unsubscribe();
  });

  it("are for administrators (and services) only, and refuse bad values writing nothing", async () => {
    const u = await f.user();
    expect(await failure(f.c.GetApplicationSettings({ actor: u }))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    expect(await failure(f.c.UpdateApplicationSettings({ actor: u, changesJson: "{}" }))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    expect(settingsOf(await f.c.GetApplicationSettings({ actor: { userId: 0, system: "hook-service" } }))).toHaveProperty("notes_create_limit");
    const before = await f.c.GetApplicationSettings({ actor: f.admin });
    expect(
      await failure(
        f.c.UpdateApplicationSettings({ actor: f.admin, changesJson: JSON.stringify({ notes_create_limit: 1, default_group_visibility: "secret" }) }),
      ),
    ).toEqual({
      status: 400,
      body: { error: "default_group_visibility does not have a valid value" },
    });
    expect(await failure(f.c.UpdateApplicationSettings({ actor: f.admin, changesJson: JSON.stringify({ max_attachment_size: 0 }) }))).toEqual({
      status: 400,
      body: { message: { max_attachment_size: ["must be greater than 0"] } },
    });
    expect(await f.c.GetApplicationSettings({ actor: f.admin })).toEqual(before);
  });

  it("apply to new projects, groups and users at once", async () => {
    const owner = await f.user();
    await f.c.UpdateApplicationSettings({
      actor: f.admin,
      changesJson: JSON.stringify({
        default_project_visibility: "internal",
        default_group_visibility: "public",
        default_branch_name: "develop",
        user_default_external: true,
        can_create_group: false,
        default_projects_limit: 7,
      }),
    });
    const project = await f.c.CreateProject({ actor: owner, name: "defaults" });
    expect(project).toMatchObject({ visibility: "internal", defaultBranch: "develop" });
    const group = await f.c.CreateGroup({ actor: f.admin, name: "Public by default", path: `pub-${Date.now()}` });
    expect(group.visibility).toBe("public");
    // In a private group the default narrows to private; an explicit value is still checked.
    const privateGroup = await f.c.CreateGroup({ actor: f.admin, name: "Closed", path: `closed-${Date.now()}`, visibility: "private" });
    expect((await f.c.CreateProject({ actor: f.admin, name: "inside", namespaceId: privateGroup.id })).visibility).toBe("private");
    expect((await f.c.CreateGroup({ actor: f.admin, name: "Sub", path: "sub", parentId: privateGroup.id })).visibility).toBe("private");
    expect(await failure(f.c.CreateProject({ actor: f.admin, name: "loud", namespaceId: privateGroup.id, visibility: "public" }))).toMatchObject({
      status: 400,
    });
    const created = await f.c.CreateUser({
      actor: f.admin,
      username: `def${Date.now()}`,
      email: `def${Date.now()}@example.com`,
      name: "Defaults",
      password: "password-123",
    });
    expect(created).toMatchObject({ external: true, canCreateGroup: false, projectsLimit: 7 });
    const explicit = await f.c.CreateUser({
      actor: f.admin,
      username: `exp${Date.now()}`,
      email: `exp${Date.now()}@example.com`,
      name: "Explicit",
      password: "password-123",
      external: false,
      projectsLimit: 3,
    });
    expect(explicit).toMatchObject({ external: false, projectsLimit: 3 });
  });
});
