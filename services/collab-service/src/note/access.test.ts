import { AccessLevel } from "@quarry/gitlab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { findVisibleIssueNote } from "./access.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_note_access");
});
afterAll(() => t?.close());

describe("findVisibleIssueNote", () => {
  it("finds an issue's notes; internal ones only for Reporter+; another issue's note is 404 Note Not Found", async () => {
    const project = await t.project();
    const [guest, reporter] = await Promise.all([t.user(), t.user()]);
    await t.member("project", project.id, guest, AccessLevel.GUEST);
    await t.member("project", project.id, reporter, AccessLevel.REPORTER);
    const db = t.svc.deps.prisma;
    const [one, two] = await Promise.all([
      db.issue.create({ data: { projectId: project.id, iid: 1, title: "1", authorId: t.admin.userId } }),
      db.issue.create({ data: { projectId: project.id, iid: 2, title: "2", authorId: t.admin.userId } }),
    ]);
    const note = (issueId: number, internal: boolean) =>
      db.note.create({
        data: {
          noteableType: "Issue",
          noteableId: issueId,
          projectId: project.id,
          authorId: t.admin.userId,
          body: "b",
          internal,
          discussionId: "a".repeat(40),
        },
      });
    const plain = await note(one.id, false);
    const internal = await note(one.id, true);
    const other = await note(two.id, false);
    const find = (actor: typeof guest, noteId: number) =>
      findVisibleIssueNote(t.svc.deps, { ...actor, system: "", ipAddress: "" }, String(project.id), 1, noteId);
    const notFound = { status: 404, body: { message: "404 Note Not Found" } };
    expect((await find(t.anonymous, plain.id)).note.id).toBe(plain.id);
    expect((await find(reporter, internal.id)).note.id).toBe(internal.id);
    expect(await failure(find(guest, internal.id))).toEqual(notFound);
    expect(await failure(find(t.anonymous, internal.id))).toEqual(notFound);
    expect(await failure(find(t.admin, other.id))).toEqual(notFound);
    expect(await failure(find(t.admin, 0))).toEqual(notFound);
  });
});
