import { AccessLevel } from "@quarry/gitlab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { findVisibleIssue } from "./access.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_issue_access");
});
afterAll(() => t?.close());

describe("findVisibleIssue", () => {
  it("shows a confidential issue to Reporter+, its author and its assignees only; everyone else gets 404 Issue Not Found", async () => {
    const project = await t.project({ visibility: "public" });
    const [author, assignee, guest, reporter, outsider] = await Promise.all([t.user(), t.user(), t.user(), t.user(), t.user()]);
    await t.member("project", project.id, guest, AccessLevel.GUEST);
    await t.member("project", project.id, reporter, AccessLevel.REPORTER);
    const prisma = t.svc.deps.prisma;
    const open = await prisma.issue.create({ data: { projectId: project.id, iid: 1, title: "open", authorId: author.userId } });
    const secret = await prisma.issue.create({
      data: {
        projectId: project.id,
        iid: 2,
        title: "secret",
        confidential: true,
        authorId: author.userId,
        assignees: { create: [{ userId: assignee.userId }] },
      },
    });
    const find = (actor: typeof author, iid: number) => findVisibleIssue(t.svc.deps, { ...actor, system: "", ipAddress: "" }, String(project.id), iid);
    expect((await find(t.anonymous, 1)).issue.id).toBe(open.id);
    for (const actor of [author, assignee, reporter, t.admin]) expect((await find(actor, 2)).issue.id).toBe(secret.id);
    for (const actor of [t.anonymous, outsider, guest]) {
      expect(await failure(find(actor, 2))).toEqual({ status: 404, body: { message: "404 Issue Not Found" } });
    }
    expect(await failure(find(t.admin, 3))).toEqual({ status: 404, body: { message: "404 Issue Not Found" } });
    expect(await failure(find(t.admin, 2 ** 31))).toEqual({ status: 404, body: { message: "404 Issue Not Found" } });
  });

  it("answers 404 Project Not Found for a private project's issue to outsiders", async () => {
    const project = await t.project({ visibility: "private" });
    await t.svc.deps.prisma.issue.create({ data: { projectId: project.id, iid: 1, title: "x", authorId: t.admin.userId } });
    const outsider = await t.user();
    expect(await failure(findVisibleIssue(t.svc.deps, { ...outsider, system: "", ipAddress: "" }, String(project.id), 1))).toEqual({
      status: 404,
      body: { message: "404 Project Not Found" },
    });
  });
});
