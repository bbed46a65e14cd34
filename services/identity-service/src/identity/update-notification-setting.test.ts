import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

const global = { type: "global", idOrPath: "" };

describe("GetNotificationSetting / UpdateNotificationSetting", () => {
  it("defaults to participating with the primary e-mail globally, and to global for groups and projects", async () => {
    const u = await f.user("notify-ann");
    expect(await f.c.GetNotificationSetting({ actor: u, source: global })).toMatchObject({
      level: "participating",
      notificationEmail: "notify-ann@example.com",
      sourceType: "global",
    });
    const p = await f.c.CreateProject({ actor: u, name: "Noisy" });
    expect(await f.c.GetNotificationSetting({ actor: u, source: { type: "project", idOrPath: p.pathWithNamespace } })).toMatchObject({
      level: "global",
      notificationEmail: "",
      sourceType: "project",
      sourceId: p.id,
    });
  });

  it("stores a custom level with event switches per source, leaving unset switches null", async () => {
    const u = await f.user();
    const g = await f.c.CreateGroup({ actor: u, name: "Notified", path: `notified-${u.userId}` });
    const source = { type: "group", idOrPath: String(g.id) };
    const updated = await f.c.UpdateNotificationSetting({ actor: u, source, level: "custom", events: { newNote: true, failedPipeline: false } });
    expect(updated).toMatchObject({ level: "custom", sourceType: "group", events: { newNote: true, failedPipeline: false } });
    expect(updated.events?.newIssue).toBeFalsy();
    const read = await f.c.GetNotificationSetting({ actor: u, source });
    expect(read.events).toMatchObject({ newNote: true, failedPipeline: false });
    expect(read.events?.newIssue ?? null).toBeNull();
    // Another update keeps earlier switches; the global setting is untouched.
    expect((await f.c.UpdateNotificationSetting({ actor: u, source, events: { newIssue: true } })).events).toMatchObject({ newNote: true, newIssue: true });
    expect((await f.c.GetNotificationSetting({ actor: u, source: global })).level).toBe("participating");
  });

  it("refuses an unknown level and an unverified e-mail without writing anything", async () => {
    const u = await f.user("notify-bob");
    expect(await failure(f.c.UpdateNotificationSetting({ actor: u, source: global, level: "loud", events: { newNote: true } }))).toEqual({
      status: 400,
      body: { error: "level does not have a valid value" },
    });
    expect(await failure(f.c.UpdateNotificationSetting({ actor: u, source: global, level: "watch", notificationEmail: "other@example.com" }))).toEqual({
      status: 400,
      body: { message: { notification_email: ["must be an email you have verified"] } },
    });
    expect(await f.deps.prisma.notificationSetting.count({ where: { userId: u.userId } })).toBe(0);
    const ok = await f.c.UpdateNotificationSetting({ actor: u, source: global, level: "watch", notificationEmail: "NOTIFY-BOB@example.com" });
    expect(ok).toMatchObject({ level: "watch", notificationEmail: "NOTIFY-BOB@example.com" });
  });

  it("needs a user, and a readable group or project", async () => {
    expect((await failure(f.c.GetNotificationSetting({ actor: f.anonymous, source: global }))).status).toBe(401);
    const owner = await f.user();
    const p = await f.c.CreateProject({ actor: owner, name: "Closed" });
    const other = await f.user();
    expect(await failure(f.c.UpdateNotificationSetting({ actor: other, source: { type: "project", idOrPath: String(p.id) }, level: "watch" }))).toEqual({
      status: 404,
      body: { message: "404 Project Not Found" },
    });
    expect((await failure(f.c.GetNotificationSetting({ actor: other, source: { type: "group", idOrPath: "nowhere" } }))).body).toEqual({
      message: "404 Group Not Found",
    });
  });
});
