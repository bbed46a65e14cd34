import { AccessLevel } from "@quarry/gitlab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext, type TestActor } from "../../test/support.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_list");
});
afterAll(() => t?.close());

/** A merge request row (listing reads rows; creating them through git is CreateMergeRequest's test). */
async function mergeRequest(projectId: number, iid: number, title: string, authorId: number, extra: Record<string, unknown> = {}) {
  return t.svc.deps.prisma.mergeRequest.create({
    data: { projectId, sourceProjectId: projectId, iid, title, sourceBranch: `b${iid}`, targetBranch: "main", authorId, ...extra },
  });
}

describe("ListMergeRequests", () => {
  it("lists a project's merge requests as messages, one offset page with the total", async () => {
    const project = await t.project();
    const author = await t.user();
    const m1 = await mergeRequest(project.id, 1, "First", author.userId);
    await mergeRequest(project.id, 2, "Second", author.userId, { state: "merged", mergedAt: new Date(), mergeUserId: t.admin.userId });
    // Checked already: a list shows the cached merge_status, and an unchecked one reads "unchecked".
    await mergeRequest(project.id, 3, "Draft: third", author.userId, { draft: true, mergeStatus: "can_be_merged" });
    await t.svc.deps.prisma.note.create({
      data: { noteableType: "MergeRequest", noteableId: m1.id, projectId: project.id, authorId: author.userId, body: "hi", discussionId: "a".repeat(40) },
    });
    const page = await t.client.ListMergeRequests({ actor: t.admin, project: String(project.id), page: { page: 1, perPage: 2 } });
    expect(page.mergeRequests.map((m) => [Number(m.iid), m.title, m.state, m.detailedMergeStatus])).toEqual([
      [3, "Draft: third", "opened", "draft_status"],
      [2, "Second", "merged", "not_open"],
    ]);
    expect(page.mergeRequests[0]).toMatchObject({ projectPath: project.path, draft: true, authorId: author.userId });
    expect(Number(page.pageInfo!.total)).toBe(3);
    const last = await t.client.ListMergeRequests({ actor: t.admin, project: String(project.id), page: { page: 2, perPage: 2 } });
    expect(last.mergeRequests.map((m) => Number(m.iid))).toEqual([1]);
    expect(Number(last.mergeRequests[0]!.userNotesCount)).toBe(1);
    expect(
      (await t.client.ListMergeRequests({ actor: t.admin, project: String(project.id), orderBy: "title", sort: "asc" })).mergeRequests.map((m) => m.title),
    ).toEqual(["Draft: third", "First", "Second"]);
    expect(await failure(t.client.ListMergeRequests({ actor: t.admin, project: String(project.id), orderBy: "priority" }))).toEqual({
      status: 400,
      body: { error: "order_by does not have a valid value" },
    });
  });

  it("covers a group's projects and subgroups, and every visible project, with merge requests only where the caller may read them", async () => {
    const group = await t.group({ visibility: "public" });
    const sub = await t.group({ parentId: group.id, visibility: "public" });
    const pa = await t.project({ namespaceId: group.id });
    const pb = await t.project({ namespaceId: sub.id });
    const secret = await t.project({ namespaceId: sub.id, visibility: "private" });
    const elsewhere = await t.project();
    const [author, guest, reporter] = [await t.user(), await t.user(), await t.user()];
    await t.member("project", secret.id, guest, AccessLevel.GUEST);
    await t.member("project", secret.id, reporter, AccessLevel.REPORTER);
    await mergeRequest(pa.id, 1, "in group", author.userId);
    await mergeRequest(pb.id, 1, "in subgroup", author.userId);
    await mergeRequest(secret.id, 1, "private", author.userId);
    await mergeRequest(elsewhere.id, 1, "elsewhere", author.userId);
    const titles = async (actor: TestActor, where: { group?: string; project?: string; scope?: string; nonArchived?: boolean }) =>
      (await t.client.ListMergeRequests({ actor, sort: "asc", ...where })).mergeRequests.map((m) => m.title);

    expect(await titles(t.admin, { group: String(group.id) })).toEqual(["in group", "in subgroup", "private"]);
    expect(await titles(t.anonymous, { group: String(group.id) })).toEqual(["in group", "in subgroup"]);
    // A Guest of a private project does not see its merge requests (they live with the code); a Reporter does.
    expect(await titles(guest, { group: String(group.id) })).toEqual(["in group", "in subgroup"]);
    expect(await titles(reporter, { group: String(sub.id) })).toEqual(["in subgroup", "private"]);
    expect(await failure(t.client.ListMergeRequests({ actor: guest, project: String(secret.id) }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    expect(await titles(reporter, { project: String(secret.id) })).toEqual(["private"]);
    const everywhere = await titles(author, { scope: "created_by_me" });
    expect(everywhere).toEqual(["in group", "in subgroup", "elsewhere"]);
    expect((await t.client.ListMergeRequests({ actor: t.admin, group: String(group.id) })).groupFullPath).toBe(group.fullPath);
    // non_archived leaves out archived projects' merge requests; without it they stay.
    await t.identity.UpdateProject({ actor: t.admin, idOrPath: String(pb.id), archived: true });
    expect(await titles(t.admin, { group: String(group.id), nonArchived: true })).toEqual(["in group", "private"]);
    expect(await titles(t.admin, { group: String(group.id) })).toEqual(["in group", "in subgroup", "private"]);
    const hidden = await t.group({ visibility: "private" });
    expect(await failure(t.client.ListMergeRequests({ actor: guest, group: String(hidden.id) }))).toEqual({
      status: 404,
      body: { message: "404 Group Not Found" },
    });
  });
});
