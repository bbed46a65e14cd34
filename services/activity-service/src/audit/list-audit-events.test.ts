import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, seed, startFixture } from "../test-fixture.ts";

describe("ListAuditEvents", () => {
  let f: Fixture;
  let ids: number[];

  beforeAll(async () => {
    f = await startFixture("list");
    const rows = await seed(f, [
      { authorId: 1, entityType: "Group", entityId: 10, createdAt: new Date("2026-01-01T00:00:00Z") },
      { authorId: 2, entityType: "Group", entityId: 10, createdAt: new Date("2026-01-05T00:00:00Z") },
      { authorId: 1, entityType: "Project", entityId: 20, createdAt: new Date("2026-01-10T00:00:00Z"), details: { change: "path", from: "a", to: "b" } },
      { authorId: 3, entityType: "User", entityId: 3, createdAt: new Date("2026-01-15T00:00:00Z") },
      { authorId: 1, entityType: "Group", entityId: 11, createdAt: new Date("2026-01-20T00:00:00Z") },
    ]);
    ids = rows.map((r) => r.id);
  });
  afterAll(() => f?.stop());

  it("answers every event newest first with offset paging facts", async () => {
    const r = await f.client.ListAuditEvents({ page: { page: 1, perPage: 2 } });
    expect(r.events.map((e) => e.id)).toEqual([ids[4], ids[3]]);
    expect(r.pageInfo).toEqual({ total: 5, page: 1, perPage: 2 });
    expect(r.hasMore).toBe(true);
    const last = await f.client.ListAuditEvents({ page: { page: 3, perPage: 2 } });
    expect(last.events.map((e) => e.id)).toEqual([ids[0]]);
    expect(last.hasMore).toBe(false);
  });

  it("filters by entity, by entity id only with a type, and by author", async () => {
    expect((await f.client.ListAuditEvents({ entityType: "Group" })).events.map((e) => e.id)).toEqual([ids[4], ids[1], ids[0]]);
    expect((await f.client.ListAuditEvents({ entityType: "Group", entityId: 10 })).events.map((e) => e.id)).toEqual([ids[1], ids[0]]);
    expect((await f.client.ListAuditEvents({ entityType: "Group", entityId: 10, authorId: 1 })).events.map((e) => e.id)).toEqual([ids[0]]);
    expect((await f.client.ListAuditEvents({ entityId: 10 })).pageInfo?.total).toBe(5);
  });

  it("filters by created_after and created_before, both inclusive", async () => {
    const r = await f.client.ListAuditEvents({ createdAfter: "2026-01-05T00:00:00Z", createdBefore: "2026-01-15T00:00:00Z" });
    expect(r.events.map((e) => e.id)).toEqual([ids[3], ids[2], ids[1]]);
  });

  it("pages by keyset below id_before", async () => {
    const first = await f.client.ListAuditEvents({ keyset: true, page: { perPage: 2 } });
    expect(first.events.map((e) => e.id)).toEqual([ids[4], ids[3]]);
    expect(first.hasMore).toBe(true);
    const next = await f.client.ListAuditEvents({ keyset: true, idBefore: ids[3], page: { perPage: 2 } });
    expect(next.events.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    const end = await f.client.ListAuditEvents({ keyset: true, idBefore: ids[1], page: { perPage: 2 } });
    expect(end.events.map((e) => e.id)).toEqual([ids[0]]);
    expect(end.hasMore).toBe(false);
  });

  it("answers the event's fields with details as JSON", async () => {
    const r = await f.client.ListAuditEvents({ entityType: "Project" });
    expect(r.events).toEqual([
      {
        id: ids[2],
        authorId: 1,
        entityId: 20,
        entityType: "Project",
        eventName: "project_created",
        detailsJson: JSON.stringify({ to: "b", from: "a", change: "path" }),
        createdAt: "2026-01-10T00:00:00.000Z",
      },
    ]);
  });

  it("refuses a malformed time", async () => {
    await expect(f.client.ListAuditEvents({ createdAfter: "yesterday" })).rejects.toMatchObject({ code: 3 });
  });
});
