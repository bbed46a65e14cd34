import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { noteFixture } from "./test-fixture.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_note_list");
});
afterAll(() => t?.close());

describe("ListNotes", () => {
  it("lists newest first by default, sorts by created_at or updated_at both ways, includes system notes, pages", async () => {
    const f = await noteFixture(t);
    const db = t.svc.deps.prisma;
    const at = (s: string) => new Date(`2030-01-0${s}T00:00:00Z`);
    const mk = (body: string, created: string, updated: string, system = false) =>
      db.note.create({
        data: {
          noteableType: "Issue",
          noteableId: f.issue.id,
          projectId: f.project.id,
          authorId: t.admin.userId,
          body,
          system,
          discussionId: "b".repeat(40),
          createdAt: at(created),
          updatedAt: at(updated),
        },
      });
    await mk("a", "1", "3");
    await mk("b", "2", "1", true);
    await mk("c", "3", "2");
    const list = async (sort: string, orderBy: string, page = { page: 1, perPage: 20 }) =>
      t.client.ListNotes({ actor: f.guest, noteable: f.noteable, sort, orderBy, page });
    const bodies = async (sort: string, orderBy: string) => (await list(sort, orderBy)).notes.map((n) => n.body);
    expect(await bodies("", "")).toEqual(["c", "b", "a"]);
    expect(await bodies("asc", "created_at")).toEqual(["a", "b", "c"]);
    expect(await bodies("desc", "updated_at")).toEqual(["a", "c", "b"]);
    expect(await bodies("asc", "updated_at")).toEqual(["b", "c", "a"]);
    const page2 = await list("asc", "created_at", { page: 2, perPage: 2 });
    expect(page2.notes.map((n) => n.body)).toEqual(["c"]);
    expect(page2.pageInfo).toEqual({ total: 3, page: 2, perPage: 2 });
    const filtered = async (activityFilter: string) =>
      (await t.client.ListNotes({ actor: f.guest, noteable: f.noteable, sort: "asc", activityFilter })).notes.map((n) => n.body);
    expect(await filtered("only_comments")).toEqual(["a", "c"]);
    expect(await filtered("only_activity")).toEqual(["b"]);
    expect(await filtered("all_notes")).toEqual(["a", "b", "c"]);
    const system = (await list("asc", "")).notes[1]!;
    expect(system).toMatchObject({ system: true, noteableType: "Issue", noteableId: f.issue.id, noteableIid: 1, projectId: f.project.id });
  });

  it("shows internal notes to Reporter+ and administrators only; anonymous callers get 401", async () => {
    const f = await noteFixture(t);
    await f.create(t.admin, "public");
    await f.create(t.admin, "secret", { internal: true });
    const bodies = async (actor: typeof f.guest) =>
      (await t.client.ListNotes({ actor, noteable: f.noteable, sort: "asc", orderBy: "" })).notes.map((n) => n.body);
    expect(await bodies(f.reporter)).toEqual(["public", "secret"]);
    expect(await bodies(t.admin)).toEqual(["public", "secret"]);
    expect(await bodies(f.guest)).toEqual(["public"]);
    expect(await bodies(f.outsider)).toEqual(["public"]);
    expect(await failure(t.client.ListNotes({ actor: t.anonymous, noteable: f.noteable }))).toEqual({ status: 401, body: { message: "401 Unauthorized" } });
  });

  it("answers 404 for private projects, unknown and confidential issues, and for unknown snippets and merge requests", async () => {
    const priv = await noteFixture(t, { visibility: "private" });
    expect(await failure(t.client.ListNotes({ actor: priv.outsider, noteable: priv.noteable }))).toEqual({
      status: 404,
      body: { message: "404 Project Not Found" },
    });
    expect((await t.client.ListNotes({ actor: priv.guest, noteable: priv.noteable })).notes).toEqual([]);
    const conf = await noteFixture(t, { confidential: true });
    await conf.create(t.admin, "hidden");
    const issueNotFound = { status: 404, body: { message: "404 Issue Not Found" } };
    expect(await failure(t.client.ListNotes({ actor: conf.guest, noteable: conf.noteable }))).toEqual(issueNotFound);
    expect((await t.client.ListNotes({ actor: conf.reporter, noteable: conf.noteable })).notes).toHaveLength(1);
    expect(await failure(t.client.ListNotes({ actor: t.admin, noteable: { ...conf.noteable, id: 99 } }))).toEqual(issueNotFound);
    expect(await failure(t.client.ListNotes({ actor: t.admin, noteable: { ...conf.noteable, type: "Snippet" } }))).toEqual({
      status: 404,
      body: { message: "404 Snippet Not Found" },
    });
    expect(await failure(t.client.ListNotes({ actor: t.admin, noteable: { ...conf.noteable, type: "MergeRequest" } }))).toEqual({
      status: 404,
      body: { message: "404 Not found" },
    });
  });
});
