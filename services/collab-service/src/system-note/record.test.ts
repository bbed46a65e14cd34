import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type CollabTestContext } from "../../test/support.ts";
import { recordIssueSystemNotes, type IssueNoteState } from "./record.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_system_notes");
});
afterAll(() => t?.close());

const state = (over: Partial<IssueNoteState> = {}): IssueNoteState => ({
  title: "Crash",
  description: null,
  confidential: false,
  discussionLocked: null,
  dueDate: null,
  assigneeIds: [],
  ...over,
});

describe("recordIssueSystemNotes", () => {
  it("notes title, description, lock, due date, assignee and confidentiality changes in GitLab's words", async () => {
    const project = await t.project();
    const db = t.svc.deps.prisma;
    const issue = await db.issue.create({ data: { projectId: project.id, iid: 1, title: "Crash on save", authorId: t.admin.userId } });
    const bodies = await db.$transaction((tx) =>
      recordIssueSystemNotes(tx, {
        issue,
        before: state({ assigneeIds: [7] }),
        after: state({ title: "Crash on save", description: "x", confidential: true, discussionLocked: true, dueDate: "2026-12-01", assigneeIds: [8, 9] }),
        authorId: t.admin.userId,
        usernames: new Map([
          [7, "gone"],
          [8, "ann"],
          [9, "bob"],
        ]),
      }),
    );
    expect(bodies).toEqual([
      "changed title from **Crash** to **Crash{+ on save+}**",
      "changed the description",
      "locked the discussion in this issue",
      "changed due date to December 1, 2026",
      "assigned to @ann and @bob and unassigned @gone",
      "made the issue confidential",
    ]);
    const notes = await db.note.findMany({ where: { noteableType: "Issue", noteableId: issue.id }, orderBy: { id: "asc" } });
    expect(notes.map((n) => n.body)).toEqual(bodies);
    expect(notes.every((n) => n.system && n.projectId === project.id && /^[0-9a-f]{40}$/.test(n.discussionId))).toBe(true);
  });

  it("writes nothing for a new issue without assignees, due date or mentions, and nothing for an unchanged one", async () => {
    const project = await t.project();
    const db = t.svc.deps.prisma;
    const issue = await db.issue.create({ data: { projectId: project.id, iid: 1, title: "t", authorId: t.admin.userId } });
    const usernames = new Map<number, string>();
    expect(await db.$transaction((tx) => recordIssueSystemNotes(tx, { issue, before: null, after: state({ title: "t" }), authorId: 1, usernames }))).toEqual(
      [],
    );
    expect(await db.$transaction((tx) => recordIssueSystemNotes(tx, { issue, before: state(), after: state(), authorId: 1, usernames }))).toEqual([]);
    expect(await db.note.count({ where: { noteableId: issue.id } })).toBe(0);
  });

  it("writes 'mentioned in #n' once on newly mentioned issues of the project, internal when the source is confidential", async () => {
    const project = await t.project();
    const other = await t.project();
    const db = t.svc.deps.prisma;
    const [one, two, three] = await Promise.all(
      [1, 2, 3].map((iid) => db.issue.create({ data: { projectId: project.id, iid, title: `i${iid}`, authorId: t.admin.userId } })),
    );
    const foreign = await db.issue.create({ data: { projectId: other.id, iid: 2, title: "x", authorId: t.admin.userId } });
    const usernames = new Map<number, string>();
    const record = (before: IssueNoteState | null, after: IssueNoteState) =>
      db.$transaction((tx) => recordIssueSystemNotes(tx, { issue: three!, before, after, authorId: t.admin.userId, usernames }));
    await record(null, state({ description: "see #1, #2, #3 and #99" }));
    await record(state({ description: "see #1" }), state({ description: "see #1 and #2" }));
    await record(state(), state({ description: "#2", confidential: true }));
    const notesOn = (id: number) =>
      db.note.findMany({ where: { noteableId: id, noteableType: "Issue" }, select: { body: true, internal: true, system: true } });
    expect(await notesOn(one!.id)).toEqual([{ body: "mentioned in #3", internal: false, system: true }]);
    expect(await notesOn(two!.id)).toEqual([{ body: "mentioned in #3", internal: false, system: true }]);
    expect(await notesOn(foreign.id)).toEqual([]);
    expect((await notesOn(three!.id)).map((n) => n.body)).toEqual(["changed the description", "changed the description", "made the issue confidential"]);
  });
});
