import type { BusMessage } from "@quarry/bus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, startFixture } from "../test-fixture.ts";
import { forgetUserEvents } from "./forget-user.ts";
import { recordContributionEvent } from "./record.ts";

const push = (eventId: string, userId: number): BusMessage<unknown> => ({
  subject: "quarry.repo.push",
  data: {
    event_id: eventId,
    object_kind: "push",
    before: "0".repeat(40),
    after: "b".repeat(40),
    ref: "refs/heads/main",
    user_id: userId,
    project_id: 3,
    commits: [],
  },
  id: eventId,
  deliveryCount: 1,
  publishedAt: new Date(),
});

describe("forgetUserEvents", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture("forget_user");
  });
  afterAll(() => f?.stop());

  it("deletes a deleted user's contribution events and nobody else's; again, nothing", async () => {
    const record = recordContributionEvent({ prisma: f.svc.deps.prisma });
    await record(push("p1", 7));
    await record(push("p2", 7));
    await record(push("p3", 8));
    expect(await forgetUserEvents(f.svc.deps, { user_id: 7 })).toBe(2);
    expect((await f.svc.deps.prisma.event.findMany({ select: { authorId: true } })).map((e) => e.authorId)).toEqual([8]);
    expect(await forgetUserEvents(f.svc.deps, { user_id: 7 })).toBe(0);
  });
});
