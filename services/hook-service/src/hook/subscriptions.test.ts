import { Subjects } from "@quarry/bus";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFixture, type Fixture } from "../test-fixture.ts";

describe("subscriptions", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture("hook_subscriptions");
  });
  afterAll(() => f?.stop());

  it("a project_destroy event removes the project's hooks, not other projects' or groups'", async () => {
    for (const owner of [{ projectId: 21 }, { projectId: 21 }, { projectId: 22 }, { groupId: 21 }]) {
      await f.client.CreateHook({ owner, input: { url: "http://127.0.0.1:9/" } });
    }
    const now = new Date().toISOString();
    await f.bus.publish(Subjects.projectDestroy, {
      event_id: "destroy-21",
      event_name: "project_destroy",
      created_at: now,
      updated_at: now,
      project_id: 21,
      name: "p",
      path: "p",
      path_with_namespace: "someone/p",
      project_visibility: "private",
      owner_name: "S",
      owner_email: "s@x.io",
      owners: [],
    });
    await waitFor(async () => (await f.client.ListHooks({ owner: { projectId: 21 } })).total === 0, { message: "hooks removed" });
    expect((await f.client.ListHooks({ owner: { projectId: 22 } })).total).toBe(1);
    expect((await f.client.ListHooks({ owner: { groupId: 21 } })).total).toBe(1);
  });

  it("a group_destroy event removes the group's hooks, not other groups' or projects'", async () => {
    for (const owner of [{ groupId: 31 }, { groupId: 31 }, { groupId: 32 }, { projectId: 31 }]) {
      await f.client.CreateHook({ owner, input: { url: "http://127.0.0.1:9/" } });
    }
    const now = new Date().toISOString();
    await f.bus.publish(Subjects.groupDestroy, {
      event_id: "destroy-group-31",
      event_name: "group_destroy",
      created_at: now,
      updated_at: now,
      group_id: 31,
      name: "g",
      path: "g",
      full_path: "g",
      parent_id: null,
    });
    await waitFor(async () => (await f.client.ListHooks({ owner: { groupId: 31 } })).total === 0, { message: "group hooks removed" });
    expect((await f.client.ListHooks({ owner: { groupId: 32 } })).total).toBe(1);
    expect((await f.client.ListHooks({ owner: { projectId: 31 } })).total).toBe(1);
  });
});
