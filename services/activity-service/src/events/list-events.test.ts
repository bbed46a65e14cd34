import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, startFixture } from "../test-fixture.ts";

describe("ListEvents", () => {
  let f: Fixture;
  let ids: number[];

  beforeAll(async () => {
    f = await startFixture("contrib_list");
    const rows = [
      { projectId: 1, authorId: 10, action: 1, targetType: null, createdAt: new Date("2026-01-01T10:00:00Z") },
      {
        projectId: 1,
        authorId: 10,
        action: 5,
        targetType: null,
        createdAt: new Date("2026-01-02T10:00:00Z"),
        pushPayload: {
          create: { commitCount: 1, action: "created", refType: "branch", commitFrom: null, commitTo: "b".repeat(40), ref: "main", commitTitle: "Init" },
        },
      },
      {
        projectId: 2,
        authorId: 11,
        action: 1,
        targetId: 160,
        targetIid: 7,
        targetType: "Issue",
        targetTitle: "Bug",
        createdAt: new Date("2026-01-03T10:00:00Z"),
      },
      {
        projectId: 2,
        authorId: 10,
        action: 3,
        targetId: 161,
        targetIid: 8,
        targetType: "Issue",
        targetTitle: "Secret",
        confidential: true,
        confidentialReaderIds: [12],
        createdAt: new Date("2026-01-04T10:00:00Z"),
      },
      {
        projectId: 3,
        authorId: 10,
        action: 6,
        targetId: 1312,
        targetIid: 1312,
        targetType: "DiffNote",
        targetTitle: "MR",
        data: { note: { id: 1312, body: "Nice" } },
        createdAt: new Date("2026-01-05T10:00:00Z"),
      },
    ];
    ids = [];
    for (const [i, r] of rows.entries()) ids.push((await f.svc.deps.prisma.event.create({ data: { sourceEventId: `s-${i}`, ...r } })).id);
  });
  afterAll(() => f?.stop());

  const all = { allProjects: true, allConfidential: true };
  const list = async (req: object) => (await f.client.ListEvents(req)).events.map((e) => e.id);

  it("answers events newest first (oldest first when asked) with paging facts", async () => {
    const r = await f.client.ListEvents({ ...all, page: { page: 1, perPage: 2 } });
    expect(r.events.map((e) => e.id)).toEqual([ids[4], ids[3]]);
    expect(r.pageInfo).toEqual({ total: 5, page: 1, perPage: 2 });
    expect(await list({ ...all, ascending: true, page: { page: 2, perPage: 2 } })).toEqual([ids[2], ids[3]]);
  });

  it("answers the event's fields: action name, target, push data, note", async () => {
    const r = await f.client.ListEvents({ ...all, ascending: true });
    expect(r.events[1]).toEqual({
      id: ids[1],
      projectId: 1,
      authorId: 10,
      action: "pushed",
      actionName: "pushed new",
      targetId: 0,
      targetIid: 0,
      targetType: "",
      targetTitle: "",
      createdAt: "2026-01-02T10:00:00.000Z",
      pushData: {
        commitCount: 1,
        action: "created",
        refType: "branch",
        commitFrom: "",
        commitTo: "b".repeat(40),
        ref: "main",
        commitTitle: "Init",
        refCount: 0,
      },
      noteJson: "",
      wikiPageJson: "",
      confidential: false,
    });
    expect(r.events[0]).toMatchObject({ action: "created", actionName: "created", pushData: null });
    expect(r.events[2]).toMatchObject({ actionName: "opened", targetId: 160, targetIid: 7, targetType: "Issue", targetTitle: "Bug" });
    expect(r.events[4]).toMatchObject({ actionName: "commented on", targetType: "DiffNote", noteJson: JSON.stringify({ id: 1312, body: "Nice" }) });
  });

  it("keeps to the given projects and author", async () => {
    expect(await list({ ...all, allProjects: false, projectIds: [1, 3] })).toEqual([ids[4], ids[1], ids[0]]);
    expect(await list({ ...all, allProjects: false, projectIds: [] })).toEqual([]);
    expect(await list({ ...all, authorId: 11 })).toEqual([ids[2]]);
  });

  it("shows confidential events only in the projects named for them, or to their author", async () => {
    expect(await list({ allProjects: true, viewerId: 99 })).toEqual([ids[4], ids[2], ids[1], ids[0]]);
    expect(await list({ allProjects: true, viewerId: 99, confidentialProjectIds: [2] })).toContain(ids[3]);
    expect(await list({ allProjects: true, viewerId: 10 })).toContain(ids[3]);
    expect(await list({ allProjects: true, viewerId: 12 })).toContain(ids[3]);
    expect(await list({ allProjects: true, viewerId: 0 })).not.toContain(ids[3]);
  });

  it("filters by action and target type keys", async () => {
    expect(await list({ ...all, action: "created" })).toEqual([ids[2], ids[0]]);
    expect(await list({ ...all, action: "pushed" })).toEqual([ids[1]]);
    expect(await list({ ...all, targetType: "issue" })).toEqual([ids[3], ids[2]]);
    expect(await list({ ...all, targetType: "note" })).toEqual([ids[4]]);
    await expect(f.client.ListEvents({ ...all, action: "opened" })).rejects.toMatchObject({
      code: 3,
      details: JSON.stringify({ error: "action does not have a valid value" }),
    });
    await expect(f.client.ListEvents({ ...all, targetType: "Issue" })).rejects.toMatchObject({ code: 3 });
  });

  it("takes before (before that day) and after (after that day), both exclusive of the day", async () => {
    expect(await list({ ...all, after: "2026-01-02", before: "2026-01-05" })).toEqual([ids[3], ids[2]]);
    expect(await list({ ...all, before: "2026-01-02" })).toEqual([ids[0]]);
    expect(await list({ ...all, after: "2026-01-04" })).toEqual([ids[4]]);
    await expect(f.client.ListEvents({ ...all, after: "soon" })).rejects.toMatchObject({ code: 3 });
  });
});
