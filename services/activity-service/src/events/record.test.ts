import type { BusMessage } from "@quarry/bus";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Fixture, startFixture } from "../test-fixture.ts";
import { recordContributionEvent } from "./record.ts";

const msg = (subject: string, data: object, publishedAt = new Date("2026-02-03T04:05:06Z")): BusMessage<unknown> => ({
  subject,
  data,
  id: `m-${Math.random()}`,
  deliveryCount: 1,
  publishedAt,
});

describe("recordContributionEvent", () => {
  let f: Fixture;
  let record: ReturnType<typeof recordContributionEvent>;

  beforeAll(async () => {
    f = await startFixture("contrib_record");
    record = recordContributionEvent({ prisma: f.svc.deps.prisma });
  });
  beforeEach(async () => {
    await f.svc.deps.prisma.event.deleteMany();
    await f.svc.deps.prisma.wikiPageMeta.deleteMany();
  });
  afterAll(() => f?.stop());

  const rows = () => f.svc.deps.prisma.event.findMany({ orderBy: { id: "asc" }, include: { pushPayload: true } });

  it("records a push with its payload once per event_id, dated when published", async () => {
    const m = msg("quarry.repo.push", {
      event_id: "push-1",
      object_kind: "push",
      before: "a".repeat(40),
      after: "b".repeat(40),
      ref: "refs/heads/main",
      user_id: 5,
      project_id: 9,
      total_commits_count: 1,
      commits: [{ message: "Fix\n" }],
    });
    expect(await record(m)).toBe(true);
    expect(await record(m)).toBe(false);
    expect(await record({ ...m, id: "another-bus-id" })).toBe(false);
    const [row, ...more] = await rows();
    expect(more).toEqual([]);
    expect(row).toMatchObject({ sourceEventId: "push-1", projectId: 9, authorId: 5, action: 5, targetId: null, createdAt: new Date("2026-02-03T04:05:06Z") });
    expect(row!.pushPayload).toEqual({
      eventId: row!.id,
      commitCount: 1,
      action: "pushed",
      refType: "branch",
      commitFrom: "a".repeat(40),
      commitTo: "b".repeat(40),
      ref: "main",
      commitTitle: "Fix",
      refCount: null,
    });
  });

  it("gives a wiki page one WikiPage::Meta id across its events", async () => {
    const wiki = (id: string, action: string, projectId = 9) =>
      msg("quarry.repo.wiki_page", {
        event_id: id,
        object_kind: "wiki_page",
        user_id: 3,
        project_id: projectId,
        object_attributes: { title: "Home", slug: "home", format: "markdown", action },
      });
    await record(wiki("w1", "create"));
    await record(wiki("w2", "update"));
    await record(wiki("w3", "create", 10));
    const r = await rows();
    expect(r.map((x) => [x.action, x.targetType, x.targetTitle])).toEqual([
      [1, "WikiPage::Meta", "Home"],
      [2, "WikiPage::Meta", "Home"],
      [1, "WikiPage::Meta", "Home"],
    ]);
    expect(r[0]!.targetId).toBe(r[1]!.targetId);
    expect(r[2]!.targetId).not.toBe(r[0]!.targetId);
    expect(r[0]!.data).toEqual({ wiki_page: { format: "markdown", slug: "home", title: "Home" } });
  });

  it("records nothing for messages that are no contribution", async () => {
    expect(await record(msg("quarry.identity.user_create", { event_id: "u1", event_name: "user_create", user_id: 3 }))).toBe(false);
    expect(
      await record(msg("quarry.collab.issue", { event_id: "i1", object_kind: "issue", user_id: 3, project_id: 9, object_attributes: { action: "update" } })),
    ).toBe(false);
    expect(await rows()).toEqual([]);
  });

  it("is recorded from the bus by the durable consumers (identity subject: project created)", async () => {
    await f.bus.publish("quarry.test_contrib_record.identity.project_create", {
      event_id: "pc-1",
      event_name: "project_create",
      project_id: 12,
      path_with_namespace: "g/p",
      actor: { user_id: 1, ip_address: "" },
    });
    for (let i = 0; i < 100 && !(await rows()).length; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await rows()).map((x) => [x.sourceEventId, x.projectId, x.authorId, x.action])).toEqual([["pc-1", 12, 1, 1]]);
  });
});
