// Test-only helpers for the note handler tests: issues are written straight into the table
// (CreateIssue lives on another branch), notes through the RPCs.
import { AccessLevel } from "@quarry/gitlab";
import type { CollabTestContext, TestActor } from "../../test/support.ts";

/** A project with a guest, a reporter, a maintainer and an outsider, and one issue by the administrator. */
export async function noteFixture(t: CollabTestContext, options: { visibility?: string; confidential?: boolean; locked?: boolean } = {}) {
  const project = await t.project({ visibility: options.visibility ?? "public" });
  const [guest, reporter, maintainer, outsider] = await Promise.all([t.user(), t.user(), t.user(), t.user()]);
  await t.member("project", project.id, guest, AccessLevel.GUEST);
  await t.member("project", project.id, reporter, AccessLevel.REPORTER);
  await t.member("project", project.id, maintainer, AccessLevel.MAINTAINER);
  const issue = await t.svc.deps.prisma.issue.create({
    data: {
      projectId: project.id,
      iid: 1,
      title: "an issue",
      authorId: t.admin.userId,
      confidential: options.confidential ?? false,
      discussionLocked: options.locked ?? null,
    },
  });
  const noteable = { type: "Issue", project: String(project.id), id: issue.iid };
  const create = (actor: TestActor, body: string, extra: { internal?: boolean; createdAt?: string } = {}) =>
    t.client.CreateNote({ actor, noteable, body, internal: extra.internal ?? false, createdAt: extra.createdAt ?? "" });
  return { project, issue, noteable, guest, reporter, maintainer, outsider, create };
}
