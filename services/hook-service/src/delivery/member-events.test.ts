// Group member events: fan-out to the member's group's hooks and its ancestors' with member_events on,
// GitLab's payload and header. Real bus, PostgreSQL and HTTP receiver; identity-service's ancestry is stubbed.
import { randomUUID } from "node:crypto";
import { Subjects, type GroupMemberEvent } from "@quarry/bus";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HookDeps } from "../deps.ts";
import { startFixture, startReceiver, type Fixture, type Receiver } from "../test-fixture.ts";
import { fanOut } from "./fan-out.ts";

/** Group 3 is in 2, which is in 1; 9 stands apart. */
const CHAINS: Record<number, number[]> = { 1: [1], 2: [2, 1], 3: [3, 2, 1], 9: [9] };

function memberEvent(eventName: GroupMemberEvent["event_name"], groupId: number): GroupMemberEvent {
  return {
    event_id: randomUUID(),
    created_at: "2026-11-04T10:12:10Z",
    updated_at: "2026-11-04T10:12:10Z",
    group_name: `Group ${groupId}`,
    group_path: `g${groupId}`,
    group_id: groupId,
    user_username: "robert",
    user_name: "Robert Mills",
    user_email: "[REDACTED]",
    user_id: 14,
    group_access: "Guest",
    expires_at: "2026-12-04T00:00:00Z",
    group_plan: null,
    event_name: eventName,
  };
}

describe("group member events", () => {
  let f: Fixture;
  let r: Receiver;
  const asked: number[] = [];
  beforeAll(async () => {
    f = await startFixture("hook_members");
    r = await startReceiver();
    const deps = f.svc.deps as { identity: HookDeps["identity"] };
    deps.identity = {
      ...deps.identity,
      GetGroupAncestors: async (req: { groupId?: number }) => {
        asked.push(Number(req.groupId));
        const groupIds = CHAINS[Number(req.groupId)];
        if (!groupIds) throw Object.assign(new Error("5 NOT_FOUND: Group Not Found"), { code: 5 });
        return { groupIds };
      },
    } as HookDeps["identity"];
  });
  afterAll(async () => {
    await r?.close();
    await f?.stop();
  });

  const hook = async (groupId: number, path: string, input: Record<string, unknown>) =>
    Number((await f.client.CreateHook({ owner: { groupId }, input: { url: `${r.url}${path}`, pushEvents: false, ...input } })).id);
  const at = (path: string) => r.requests.filter((q) => q.path === path);

  it("delivers to the hooks of the group and its ancestors with member_events on, as GitLab sends them", async () => {
    const top = await hook(1, "/top", { memberEvents: true });
    await hook(2, "/mid-off", { pushEvents: true, subgroupEvents: true });
    const deep = await hook(3, "/deep", { memberEvents: true });
    await hook(9, "/apart", { memberEvents: true });

    const added = memberEvent("user_add_to_group", 3);
    await f.bus.publish(Subjects.userAddToGroup, added);
    await waitFor(() => at("/top").length === 1 && at("/deep").length === 1, { message: "user_add_to_group at /top and /deep" });
    const { event_id: _id, ...sent } = added;
    for (const q of [...at("/top"), ...at("/deep")]) {
      expect(q.headers["x-service-event"]).toBe("Member Hook");
      expect(q.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(q.body)).toEqual(sent);
    }
    const deliveries = await f.svc.deps.prisma.webHookDelivery.findMany({ where: { eventId: added.event_id }, orderBy: { hookId: "asc" } });
    expect(deliveries.map((d) => [d.hookId, d.trigger])).toEqual([
      [top, "member_hooks"],
      [deep, "member_hooks"],
    ]);

    await f.bus.publish(Subjects.userUpdateForGroup, { ...memberEvent("user_update_for_group", 2), group_access: "Developer" });
    await f.bus.publish(Subjects.userRemoveFromGroup, memberEvent("user_remove_from_group", 2));
    await waitFor(() => at("/top").length === 3, { message: "update and remove at /top" });
    expect(
      at("/top")
        .map((q) => JSON.parse(q.body).event_name)
        .sort(),
    ).toEqual(["user_add_to_group", "user_remove_from_group", "user_update_for_group"]);
    expect(at("/top").every((q) => q.headers["x-service-event"] === "Member Hook")).toBe(true);
    expect(at("/deep")).toHaveLength(1);
    expect(at("/mid-off")).toEqual([]);
    expect(at("/apart")).toEqual([]);
    expect((await f.client.ListRecordedEvents({ eventName: "user_update_for_group" })).events).toHaveLength(1);
  });

  it("queues nothing for a group that is gone, or when no group hook takes member events", async () => {
    const gone = { subject: Subjects.userRemoveFromGroup, id: "m1", data: memberEvent("user_remove_from_group", 404) };
    expect(await fanOut(f.svc.deps, gone as never)).toBe(0);
    expect(asked).toContain(404);
    await f.svc.deps.prisma.webHook.updateMany({ data: { memberEvents: false } });
    asked.length = 0;
    const none = { subject: Subjects.userAddToGroup, id: "m2", data: memberEvent("user_add_to_group", 3) };
    expect(await fanOut(f.svc.deps, none as never)).toBe(0);
    expect(asked).toEqual([]); // no identity call when no hook could match
  });
});
