import type { ListMergeRequestsRequest__Output } from "@quarry/proto/types/collab/v1/ListMergeRequestsRequest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, setUp, type CollabTestContext } from "../../test/support.ts";
import { mergeRequestFilters, mergeRequestOrder } from "./list-merge-requests.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_mr_filters");
});
afterAll(() => t?.close());

const blank: ListMergeRequestsRequest__Output = {
  actor: null,
  project: "",
  group: "",
  state: "",
  labels: [],
  notLabels: [],
  assigneeId: undefined,
  notAssigneeId: undefined,
  authorId: "0",
  notAuthorId: "0",
  reviewerId: undefined,
  notReviewerId: "0",
  mergeUserId: "0",
  myReactionEmoji: undefined,
  notMyReactionEmoji: undefined,
  approvedBy: "",
  approvedByIds: [],
  approver: "",
  approverIds: [],
  search: "",
  searchIn: [],
  iids: [],
  createdAfter: "",
  createdBefore: "",
  updatedAfter: "",
  updatedBefore: "",
  deployedAfter: "",
  deployedBefore: "",
  environment: "",
  sourceBranch: "",
  targetBranch: "",
  wip: "",
  scope: "",
  orderBy: "",
  sort: "",
  page: null,
  assigneeUserIds: [],
  sourceProjectId: "0",
  _assigneeId: "assigneeId",
} as unknown as ListMergeRequestsRequest__Output;

describe("mergeRequestFilters (MergeRequestsFinder on merge_requests rows)", () => {
  it("answers each filter with the merge requests it selects", async () => {
    const db = t.svc.deps.prisma;
    const project = await t.project();
    const other = await t.project();
    const [alice, bob, carol] = [await t.user(), await t.user(), await t.user()];
    const upcoming = await db.milestone.create({ data: { projectId: project.id, iid: 1, title: "v1", dueDate: new Date("2099-01-01") } });
    const bug = await db.label.create({ data: { projectId: project.id, title: "bug", color: "#ff0000" } });
    const docs = await db.label.create({ data: { projectId: project.id, title: "docs", color: "#00ff00" } });
    let iid = 0;
    const mr = (data: Partial<Parameters<typeof db.mergeRequest.create>[0]["data"]> & { projectId?: number }) =>
      db.mergeRequest.create({
        data: {
          projectId: data.projectId ?? project.id,
          sourceProjectId: data.projectId ?? project.id,
          iid: ++iid,
          title: "Change",
          sourceBranch: `feature-${iid}`,
          targetBranch: "main",
          authorId: alice.userId,
          ...data,
        },
      });
    const m1 = await mr({
      title: "Fix crash",
      description: "the parser",
      milestoneId: upcoming.id,
      labels: { create: [{ labelId: bug.id }] },
      assignees: { create: [{ userId: bob.userId }] },
      reviewers: { create: [{ userId: carol.userId }] },
      createdAt: new Date("2024-01-01T00:00:00Z"),
    });
    const m2 = await mr({
      title: "Draft: docs",
      draft: true,
      authorId: bob.userId,
      labels: { create: [{ labelId: bug.id }, { labelId: docs.id }] },
      approvals: { create: [carol.userId, alice.userId, 900_001, 900_002, 900_003].map((userId) => ({ userId })) },
      createdAt: new Date("2024-02-01T00:00:00Z"),
      sourceBranch: "docs",
    });
    const m3 = await mr({
      title: "Merged thing",
      state: "merged",
      mergeUserId: carol.userId,
      mergedAt: new Date("2024-03-05T00:00:00Z"),
      approvals: { create: [{ userId: carol.userId }] },
      createdAt: new Date("2024-03-01T00:00:00Z"),
      targetBranch: "stable",
    });
    const m4 = await mr({ title: "Closed", state: "closed", mergeUserId: carol.userId, createdAt: new Date("2024-04-01T00:00:00Z") });
    await mr({ projectId: other.id, title: "Fix elsewhere" });
    await db.awardEmoji.create({ data: { name: "thumbsup", userId: alice.userId, awardableType: "MergeRequest", awardableId: m3.id } });
    await db.awardEmoji.create({ data: { name: "thumbsup", userId: alice.userId, awardableType: "Issue", awardableId: m1.id } });

    // Numbers as strings too, as the gRPC layer hands int64 fields over.
    const ids = async (q: Record<string, unknown>, actorUser = alice.userId) =>
      (
        await db.mergeRequest.findMany({
          where: {
            AND: await mergeRequestFilters(t.svc.deps, { ...blank, ...q } as ListMergeRequestsRequest__Output, [{ id: project.id }], actorUser, new Date()),
          },
          orderBy: mergeRequestOrder(String(q.orderBy ?? ""), q.sort === "asc" ? "asc" : "desc"),
        })
      ).map((r) => r.id);
    const [a, b, c, d] = [m1.id, m2.id, m3.id, m4.id];
    expect(await ids({})).toEqual([d, c, b, a]);
    expect(await ids({ sort: "asc" })).toEqual([a, b, c, d]);
    expect(await ids({ state: "opened" })).toEqual([b, a]);
    expect(await ids({ state: "merged" })).toEqual([c]);
    expect(await ids({ state: "locked" })).toEqual([]);
    expect(await ids({ state: "all" })).toEqual([d, c, b, a]);
    expect(await ids({ labels: ["bug"] })).toEqual([b, a]);
    expect(await ids({ labels: ["bug", "docs"] })).toEqual([b]);
    expect(await ids({ labels: ["NONE"] })).toEqual([d, c]);
    expect(await ids({ labels: ["any"] })).toEqual([b, a]);
    expect(await ids({ notLabels: ["docs"] })).toEqual([d, c, a]);
    expect(await ids({ milestone: "v1" })).toEqual([a]);
    expect(await ids({ milestone: "None" })).toEqual([d, c, b]);
    expect(await ids({ milestone: "Any" })).toEqual([a]);
    expect(await ids({ milestone: "Upcoming" })).toEqual([a]);
    expect(await ids({ milestone: "Started" })).toEqual([]);
    expect(await ids({ notMilestone: "v1" })).toEqual([d, c, b]);
    expect(await ids({ assigneeId: "None" })).toEqual([d, c, b]);
    expect(await ids({ assigneeId: "Any" })).toEqual([a]);
    expect(await ids({ assigneeId: String(bob.userId) })).toEqual([a]);
    expect(await ids({ assigneeId: "-1" })).toEqual([]);
    expect(await ids({ assigneeUserIds: [bob.userId] })).toEqual([a]);
    expect(await ids({ assigneeUserIds: [bob.userId, -1] })).toEqual([]);
    expect(await ids({ notAssigneeId: String(bob.userId) })).toEqual([d, c, b]);
    expect(await ids({ reviewerId: "None" })).toEqual([d, c, b]);
    expect(await ids({ reviewerId: "any" })).toEqual([a]);
    expect(await ids({ reviewerId: String(carol.userId) })).toEqual([a]);
    expect(await ids({ notReviewerId: String(carol.userId) })).toEqual([d, c, b]);
    expect(await ids({ notReviewerId: "-1" })).toEqual([]);
    expect(await ids({ authorId: String(bob.userId) })).toEqual([b]);
    expect(await ids({ authorId: "-1" })).toEqual([]);
    expect(await ids({ notAuthorId: String(bob.userId) })).toEqual([d, c, a]);
    // Merged by: the closed one's merge user set auto-merge and does not count.
    expect(await ids({ mergeUserId: String(carol.userId) })).toEqual([c]);
    expect(await ids({ mergeUserId: "-1" })).toEqual([]);
    expect(await ids({ myReactionEmoji: "thumbsup" })).toEqual([c]);
    expect(await ids({ myReactionEmoji: "Any" })).toEqual([c]);
    expect(await ids({ myReactionEmoji: "None" })).toEqual([d, b, a]);
    expect(await ids({ myReactionEmoji: "thumbsup" }, bob.userId)).toEqual([]);
    expect(await ids({ notMyReactionEmoji: "thumbsup" })).toEqual([d, b, a]);
    expect(await ids({ approvedBy: "none" })).toEqual([d, a]);
    expect(await ids({ approvedBy: "any" })).toEqual([c, b]);
    expect(await ids({ approvedByIds: [String(carol.userId)] })).toEqual([c, b]);
    expect(await ids({ approvedByIds: [String(carol.userId), String(alice.userId)] })).toEqual([b]);
    // Only the first five distinct ids count (GitLab's MAX_FILTER_ELEMENTS): the sixth is ignored.
    expect(await ids({ approvedByIds: [String(carol.userId), "900001", "900002", "900003", String(alice.userId)] })).toEqual([b]);
    expect(await ids({ approvedByIds: [String(carol.userId), "900004"] })).toEqual([]);
    // Only the first five distinct ids count (GitLab's MAX_FILTER_ELEMENTS): the sixth is ignored.
    expect(await ids({ approvedByIds: [String(carol.userId), String(carol.userId), "900001", "900002", "900003", String(alice.userId), "900004"] })).toEqual([
      b,
    ]);
    expect(await ids({ approver: "none" })).toEqual([d, c, b, a]);
    expect(await ids({ approver: "any" })).toEqual([]);
    expect(await ids({ approverIds: [String(carol.userId)] })).toEqual([]);
    expect(await ids({ environment: "production" })).toEqual([]);
    expect(await ids({ deployedAfter: "2024-01-01T00:00:00Z" })).toEqual([]);
    expect(await ids({ search: "FIX" })).toEqual([a]);
    expect(await ids({ search: "parser" })).toEqual([a]);
    expect(await ids({ search: "parser", searchIn: ["title"] })).toEqual([]);
    expect(await ids({ iids: [String(m1.iid), String(m3.iid)] })).toEqual([c, a]);
    expect(await ids({ createdAfter: "2024-02-01T00:00:00Z" })).toEqual([d, c, b]);
    expect(await ids({ createdBefore: "2024-02-01T00:00:00Z" })).toEqual([b, a]);
    expect(await ids({ updatedBefore: "2000-01-01T00:00:00Z" })).toEqual([]);
    expect(await ids({ updatedAfter: "2000-01-01T00:00:00Z" })).toEqual([d, c, b, a]);
    expect(await ids({ sourceBranch: "docs" })).toEqual([b]);
    expect(await ids({ sourceProjectId: project.id })).toEqual([d, c, b, a]);
    expect(await ids({ sourceProjectId: other.id })).toEqual([]);
    expect(await ids({ targetBranch: "stable" })).toEqual([c]);
    expect(await ids({ wip: "yes" })).toEqual([b]);
    expect(await ids({ wip: "no" })).toEqual([d, c, a]);
    expect(await ids({ scope: "created_by_me" }, bob.userId)).toEqual([b]);
    expect(await ids({ scope: "created_by_me" }, 0)).toEqual([]);
    expect(await ids({ scope: "assigned_to_me" }, bob.userId)).toEqual([a]);
    expect(await ids({ scope: "reviews_for_me" }, carol.userId)).toEqual([a]);
    expect(await ids({ scope: "all" }, 0)).toEqual([d, c, b, a]);
    expect(await ids({ orderBy: "title", sort: "asc" })).toEqual([d, b, a, c]);
    expect(await ids({ orderBy: "merged_at", sort: "asc" })).toEqual([c, a, b, d]);
    expect(await ids({ orderBy: "merged_at", sort: "desc" })).toEqual([c, d, b, a]);
    expect(await ids({ orderBy: "updated_at", sort: "asc" })).toEqual([a, b, c, d]);

    expect(await failure(ids({ orderBy: "popularity" }))).toEqual({ status: 400, body: { error: "order_by does not have a valid value" } });
    expect(await failure(ids({ state: "open" }))).toEqual({ status: 400, body: { error: "state does not have a valid value" } });
    expect(await failure(ids({ scope: "mine" }))).toEqual({ status: 400, body: { error: "scope does not have a valid value" } });
  });
});
