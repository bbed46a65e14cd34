// Test fixtures: issues and notes written directly (the issue and note RPCs are built elsewhere).
import type { CollabTestContext } from "../../test/support.ts";

let nextIid = 1000;

/** An issue row of `projectId`, written by the administrator unless `authorId` is given. */
export async function issueRow(
  t: CollabTestContext,
  projectId: number,
  options: { confidential?: boolean; discussionLocked?: boolean; authorId?: number } = {},
) {
  return t.svc.deps.prisma.issue.create({
    data: {
      projectId,
      iid: nextIid++,
      title: "an issue",
      authorId: options.authorId ?? t.admin.userId,
      confidential: options.confidential ?? false,
      discussionLocked: options.discussionLocked ?? null,
    },
  });
}

/** A note row on an issue. */
export async function noteRow(t: CollabTestContext, issue: { id: number; projectId: number }, options: { internal?: boolean; system?: boolean } = {}) {
  return t.svc.deps.prisma.note.create({
    data: {
      noteableType: "Issue",
      noteableId: issue.id,
      projectId: issue.projectId,
      authorId: t.admin.userId,
      body: "a note",
      internal: options.internal ?? false,
      system: options.system ?? false,
      discussionId: "b".repeat(40),
    },
  });
}

/** The awardable reference of an issue, or of one of its notes. */
export const onIssue = (issue: { projectId: number; iid: number }, noteId = 0) => ({
  type: "Issue",
  project: String(issue.projectId),
  id: issue.iid,
  noteId,
});
