// The audit `actor` block identity-service puts in its events (who did it, from which address) is
// activity-service's: webhook payloads and the recorded events hooks list never carry it.
import type { BusMessage } from "@quarry/bus";
import { describe, expect, it } from "vitest";
import { toEventRecord } from "../hook/record-event.ts";
import { hookPayload } from "./fan-out.ts";

const member = {
  event_id: "e-1",
  event_name: "user_add_to_group",
  group_id: 7,
  user_id: 3,
  group_access: "Developer",
  actor: { user_id: 1, ip_address: "203.0.113.9" },
};

const msg = (data: unknown): BusMessage<unknown> => ({
  subject: "quarry.identity.user_add_to_group",
  data,
  id: "m-1",
  deliveryCount: 1,
  publishedAt: new Date(),
});

describe("the actor block", () => {
  it("is stripped from webhook payloads with event_id", () => {
    expect(hookPayload(member)).toEqual({ event_name: "user_add_to_group", group_id: 7, user_id: 3, group_access: "Developer" });
  });

  it("is not stored with the recorded event", () => {
    const r = toEventRecord(msg(member));
    expect(JSON.parse(r.payloadJson)).toEqual({ event_id: "e-1", event_name: "user_add_to_group", group_id: 7, user_id: 3, group_access: "Developer" });
    expect(r.payloadJson).not.toContain("203.0.113.9");
  });

  it("leaves payloads without one as they are", () => {
    const { actor: _a, ...plain } = member;
    expect(JSON.parse(toEventRecord(msg(plain)).payloadJson)).toEqual(plain);
  });
});
