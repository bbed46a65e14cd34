import { createClient } from "@quarry/grpc";
import { hookV1 } from "@quarry/proto";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
});
afterAll(() => s?.destroy());

describe("domain events", () => {
  it("travel from identity-service over the bus to hook-service", async () => {
    const api = s.gitlab();
    const user = await api.Users.create({ username: "eve", email: "eve@example.com", name: "Eve", password: "eve-password-1" });
    const group = await api.Groups.create("Events", "events");
    const project = await api.Projects.create({ name: "Evented", namespaceId: group.id });
    await api.Projects.remove(project.id);

    const hook = createClient(hookV1.HookService, s.addresses.hook, { deadlineMs: 5000 });
    const recorded = async (name: string) => (await hook.ListRecordedEvents({ eventName: name, limit: 100 })).events.map((e) => JSON.parse(e.payloadJson));
    const created = await waitFor(async () => (await recorded("user_create")).find((e) => e.user_id === user.id));
    expect(created).toMatchObject({ event_name: "user_create", username: "eve", email: "eve@example.com", event_id: expect.any(String) });
    const g = await waitFor(async () => (await recorded("group_create")).find((e) => e.group_id === group.id));
    expect(g).toMatchObject({ full_path: "events", parent_id: null });
    const pc = await waitFor(async () => (await recorded("project_create")).find((e) => e.project_id === project.id));
    expect(pc).toMatchObject({ path_with_namespace: "events/evented", project_visibility: "private" });
    const pd = await waitFor(async () => (await recorded("project_destroy")).find((e) => e.project_id === project.id));
    expect(pd).toMatchObject({ path_with_namespace: "events/evented" });
    hook.close();
  });
});
