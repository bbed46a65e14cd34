import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, seed, startFixture } from "../test-fixture.ts";

describe("GetAuditEvent", () => {
  let f: Fixture;
  let ids: number[];

  beforeAll(async () => {
    f = await startFixture("get");
    ids = (await seed(f, [{ authorId: 4, entityType: "Group", entityId: 10, eventName: "group_created", details: { add: "group" } }])).map((r) => r.id);
  });
  afterAll(() => f?.stop());

  it("answers the event, also when the entity and author asked for match", async () => {
    const e = await f.client.GetAuditEvent({ id: ids[0] });
    expect(e).toMatchObject({ id: ids[0], authorId: 4, entityType: "Group", entityId: 10, eventName: "group_created", detailsJson: '{"add":"group"}' });
    expect(await f.client.GetAuditEvent({ id: ids[0], entityType: "Group", entityId: 10, authorId: 4 })).toEqual(e);
  });

  it("is 404 Not found for an unknown id or another entity's or author's event", async () => {
    for (const req of [
      { id: ids[0]! + 100 },
      { id: ids[0], entityType: "Project" },
      { id: ids[0], entityType: "Group", entityId: 11 },
      { id: ids[0], authorId: 5 },
    ]) {
      await expect(f.client.GetAuditEvent(req)).rejects.toMatchObject({ code: 5, details: expect.stringContaining("404 Not found") });
    }
  });
});
