import { InProcessBus, Subjects } from "@quarry/bus";
import { describe, expect, it } from "vitest";
import { ApplicationSettingsCache } from "./cache.ts";
import { parseSettingsChanges } from "./changes.ts";
import { branchProtectionDefaults, DEFAULT_APPLICATION_SETTINGS, normalizeApplicationSettings } from "./settings.ts";

describe("application settings", () => {
  it("default to GitLab's values and drop unknown or invalid stored keys", () => {
    expect(DEFAULT_APPLICATION_SETTINGS).toMatchObject({
      default_project_visibility: "private",
      notes_create_limit: 300,
      default_branch_protection: 2,
      max_attachment_size: 100,
    });
    expect(normalizeApplicationSettings({ notes_create_limit: 5, default_branch_protection: 9, nonsense: 1 })).toEqual({
      ...DEFAULT_APPLICATION_SETTINGS,
      notes_create_limit: 5,
    });
    expect(normalizeApplicationSettings(null)).toEqual(DEFAULT_APPLICATION_SETTINGS);
  });

  it("parse form strings and JSON values, refusing bad ones with GitLab's bodies", () => {
    expect(parseSettingsChanges({ notes_create_limit: "10", can_create_group: "false", default_branch_name: "trunk", other: "x" })).toEqual({
      ok: true,
      changes: { notes_create_limit: 10, can_create_group: false, default_branch_name: "trunk" },
    });
    expect(parseSettingsChanges({ default_branch_name: "" })).toEqual({ ok: true, changes: { default_branch_name: null } });
    expect(parseSettingsChanges({ default_project_visibility: "secret" })).toEqual({
      ok: false,
      body: { error: "default_project_visibility does not have a valid value" },
    });
    expect(parseSettingsChanges({ default_branch_protection: 7 })).toEqual({
      ok: false,
      body: { error: "default_branch_protection does not have a valid value" },
    });
    expect(parseSettingsChanges({ notes_create_limit: -1 })).toEqual({
      ok: false,
      body: { message: { notes_create_limit: ["must be greater than or equal to 0"] } },
    });
    expect(parseSettingsChanges({ max_attachment_size: 0 })).toEqual({ ok: false, body: { message: { max_attachment_size: ["must be greater than 0"] } } });
    expect(parseSettingsChanges({ user_default_external: "maybe" })).toEqual({ ok: false, body: { error: "user_default_external is invalid" } });
    expect(parseSettingsChanges({ default_branch_name: "a..b" })).toEqual({
      ok: false,
      body: { message: { default_branch_name: ["is not a valid branch name"] } },
    });
  });

  it("derive default_branch_protection_defaults from the level", () => {
    expect(branchProtectionDefaults(2)).toEqual({
      allowed_to_push: [{ access_level: 40 }],
      allow_force_push: false,
      allowed_to_merge: [{ access_level: 40 }],
      developer_can_initial_push: false,
    });
    expect(branchProtectionDefaults(4).developer_can_initial_push).toBe(true);
    expect(branchProtectionDefaults(0).allow_force_push).toBe(true);
  });
});

describe("ApplicationSettingsCache", () => {
  it("fetches at start, follows published changes, and never goes back to an older snapshot", async () => {
    const bus = new InProcessBus();
    const cache = await new ApplicationSettingsCache({
      service: "test",
      bus,
      fetch: async () => ({ settings: { notes_create_limit: 7 }, revision: 3 }),
    }).start();
    expect(cache.current.notes_create_limit).toBe(7);
    await bus.publish(Subjects.applicationSettings, { settings: { notes_create_limit: 9 }, revision: 4 });
    await expect.poll(() => cache.current.notes_create_limit).toBe(9);
    await bus.publish(Subjects.applicationSettings, { settings: { notes_create_limit: 1 }, revision: 2 });
    await bus.publish(Subjects.applicationSettings, { settings: { notes_create_limit: 11 }, revision: 5 });
    await expect.poll(() => cache.current.notes_create_limit).toBe(11);
    await cache.stop();
    await bus.close();
  });

  it("keeps GitLab's defaults and retries while identity-service does not answer", async () => {
    let calls = 0;
    const cache = await new ApplicationSettingsCache({
      service: "test",
      retryMs: 10,
      fetch: async () => {
        calls++;
        if (calls < 3) throw new Error("unavailable");
        return { settings: { max_attachment_size: 5 }, revision: 1 };
      },
    }).start();
    expect(cache.current).toEqual(DEFAULT_APPLICATION_SETTINGS);
    await cache.loaded();
    expect(calls).toBe(3);
    expect(cache.current.max_attachment_size).toBe(5);
    await cache.stop();
  });
});
