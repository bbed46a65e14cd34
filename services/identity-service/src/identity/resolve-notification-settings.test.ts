import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => (f = await identityFixture()));
afterAll(() => f?.close());

describe("ResolveNotificationSettings", () => {
  it("takes the project's setting, then the nearest non-global group, then the global one", async () => {
    const owner = await f.user();
    const top = await f.c.CreateGroup({ actor: owner, name: "Top", path: `top-${owner.userId}` });
    const sub = await f.c.CreateGroup({ actor: owner, name: "Sub", path: "sub", parentId: top.id });
    const p = await f.c.CreateProject({ actor: owner, name: "Deep", namespaceId: sub.id });
    const [byProject, byTop, bySub, byGlobal, byDefault] = await Promise.all([f.user(), f.user(), f.user(), f.user(), f.user("resolve-default")]);
    // As administrators: the groups are private and these users are no members.
    const set = (u: { userId: number }, type: string, idOrPath: string, level: string, events = {}) =>
      f.c.UpdateNotificationSetting({ actor: { ...u, isAdmin: true }, source: { type, idOrPath }, level, events });
    await set(byProject, "project", String(p.id), "custom", { newNote: true });
    await set(byProject, "group", String(top.id), "disabled");
    await set(byTop, "project", String(p.id), "global");
    await set(byTop, "group", String(sub.id), "global");
    await set(byTop, "group", String(top.id), "watch");
    await set(bySub, "group", String(sub.id), "mention");
    await set(bySub, "group", String(top.id), "disabled");
    await set(byGlobal, "global", "", "disabled");
    await set(byGlobal, "project", String(p.id), "global");

    const ids = [byProject, byTop, bySub, byGlobal, byDefault].map((u) => u.userId);
    const { settings } = await f.c.ResolveNotificationSettings({ actor: { system: "test" }, userIds: [...ids, 999999], projectId: p.id });
    expect(settings.map((s) => [Number(s.userId), s.level, s.sourceType, Number(s.sourceId)])).toEqual([
      [byProject.userId, "custom", "project", Number(p.id)],
      [byTop.userId, "watch", "group", Number(top.id)],
      [bySub.userId, "mention", "group", Number(sub.id)],
      [byGlobal.userId, "disabled", "global", 0],
      [byDefault.userId, "participating", "global", 0],
    ]);
    expect(settings[0]!.events?.newNote).toBe(true);
    expect(settings[4]!.notificationEmail).toBe("resolve-default@example.com");
  });

  it("is for administrators and services only", async () => {
    const u = await f.user();
    expect((await failure(f.c.ResolveNotificationSettings({ actor: u, userIds: [u.userId] }))).status).toBe(403);
  });
});
