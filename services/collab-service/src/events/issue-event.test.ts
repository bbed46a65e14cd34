import { Subjects, type IssueEvent } from "@quarry/bus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, type CollabTestContext } from "../../test/support.ts";
import type { Issue } from "../generated/prisma/client.ts";
import { enqueueIssueEvent, issueChanges, issueSnapshot } from "./issue-event.ts";

let t: CollabTestContext;
beforeAll(async () => {
  t = await setUp("collab_issue_event");
});
afterAll(() => t?.close());

const HOOK_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;

const issueEvents = async (issueId: number) =>
  (await t.svc.deps.prisma.outboxEvent.findMany({ where: { subject: Subjects.issue }, orderBy: { id: "asc" } }))
    .map((e) => e.payload as unknown as IssueEvent)
    .filter((p) => p.object_attributes.id === issueId);

describe("enqueueIssueEvent", () => {
  it("enqueues open with every set column as a change, and no association changes", async () => {
    const project = await t.project();
    const user = await t.user();
    const prisma = t.svc.deps.prisma;
    const label = await prisma.label.create({ data: { projectId: project.id, title: "bug", color: "#ff0000" } });
    const id = await prisma.$transaction(async (tx) => {
      const issue = await tx.issue.create({ data: { projectId: project.id, iid: 1, title: "Wings", description: "fly", authorId: user.userId } });
      await tx.issueLabel.create({ data: { issueId: issue.id, labelId: label.id } });
      await tx.issueAssignee.create({ data: { issueId: issue.id, userId: user.userId } });
      await enqueueIssueEvent(tx, { issue, projectPath: project.path, action: "open", actorUserId: user.userId });
      return issue.id;
    });
    const [opened] = await issueEvents(id);
    const issue = await prisma.issue.findUniqueOrThrow({ where: { id } });
    const labelAttrs = expect.objectContaining({ id: label.id, title: "bug", type: "ProjectLabel" });
    expect(opened).toEqual({
      event_id: expect.any(String),
      event_name: "issue",
      object_kind: "issue",
      event_type: "issue",
      user_id: user.userId,
      project_id: project.id,
      object_attributes: expect.objectContaining({
        id,
        iid: 1,
        title: "Wings",
        description: "fly",
        state: "opened",
        state_id: 1,
        action: "open",
        url: `/${project.path}/-/issues/1`,
        assignee_ids: [user.userId],
        assignee_id: user.userId,
        labels: [labelAttrs],
      }),
      labels: [labelAttrs],
      assignee_ids: [user.userId],
      changes: {
        author_id: { previous: null, current: user.userId },
        created_at: { previous: null, current: expect.stringMatching(HOOK_TIME) },
        description: { previous: null, current: "fly" },
        id: { previous: null, current: id },
        iid: { previous: null, current: 1 },
        project_id: { previous: null, current: project.id },
        title: { previous: null, current: "Wings" },
        updated_at: { previous: null, current: expect.stringMatching(HOOK_TIME) },
      },
    });
    expect(issue.confidential).toBe(false);
  });

  it("diffs an update against the snapshot taken before it: columns, labels (hook attrs), assignees (ids)", async () => {
    const project = await t.project();
    const [author, editor, other] = await Promise.all([t.user(), t.user(), t.user()]);
    const prisma = t.svc.deps.prisma;
    const [bug, ux] = await Promise.all([
      prisma.label.create({ data: { projectId: project.id, title: "bug", color: "#ff0000" } }),
      prisma.label.create({ data: { projectId: project.id, title: "ux", color: "#00ff00" } }),
    ]);
    const milestone = await prisma.milestone.create({ data: { projectId: project.id, iid: 1, title: "v1" } });
    const issue = await prisma.issue.create({
      data: { projectId: project.id, iid: 1, title: "Old", authorId: author.userId, createdAt: new Date("2024-01-01T00:00:00Z") },
    });
    await prisma.issueLabel.create({ data: { issueId: issue.id, labelId: bug.id } });
    await prisma.issueAssignee.create({ data: { issueId: issue.id, userId: author.userId } });

    await prisma.$transaction(async (tx) => {
      const before = await issueSnapshot(tx, issue.id);
      await tx.issue.update({
        where: { id: issue.id },
        data: {
          title: "New",
          confidential: true,
          milestoneId: milestone.id,
          dueDate: new Date("2024-05-06"),
          discussionLocked: true,
          updatedById: editor.userId,
          updatedAt: new Date("2024-02-03T04:05:06Z"),
        },
      });
      await tx.issueLabel.deleteMany({ where: { issueId: issue.id } });
      await tx.issueLabel.create({ data: { issueId: issue.id, labelId: ux.id } });
      await tx.issueAssignee.create({ data: { issueId: issue.id, userId: other.userId } });
      await enqueueIssueEvent(tx, { issue, projectPath: project.path, action: "update", before, actorUserId: editor.userId });
    });
    const [updated] = await issueEvents(issue.id);
    const attrs = (l: typeof bug) => expect.objectContaining({ id: l.id, title: l.title, color: l.color, project_id: project.id, type: "ProjectLabel" });
    const ids = [author.userId, other.userId].sort((a, b) => a - b);
    expect(updated).toMatchObject({
      event_type: "confidential_issue",
      user_id: editor.userId,
      object_attributes: { action: "update", title: "New", confidential: true, milestone_id: milestone.id, due_date: "2024-05-06" },
      labels: [attrs(ux)],
      assignee_ids: ids,
    });
    expect(updated!.changes).toEqual({
      confidential: { previous: false, current: true },
      discussion_locked: { previous: null, current: true },
      due_date: { previous: null, current: "2024-05-06" },
      milestone_id: { previous: null, current: milestone.id },
      title: { previous: "Old", current: "New" },
      updated_at: { previous: expect.stringMatching(HOOK_TIME), current: "2024-02-03 04:05:06 UTC" },
      updated_by_id: { previous: null, current: editor.userId },
      assignees: { previous: [author.userId], current: ids },
      labels: { previous: [attrs(bug)], current: [attrs(ux)] },
    });
  });

  it("close and reopen change state_id and closed_at", async () => {
    const project = await t.project();
    const user = await t.user();
    const prisma = t.svc.deps.prisma;
    const issue = await prisma.issue.create({ data: { projectId: project.id, iid: 1, title: "t", authorId: user.userId } });
    const change = (action: "close" | "reopen", data: Partial<Issue>) =>
      prisma.$transaction(async (tx) => {
        const before = await issueSnapshot(tx, issue.id);
        await tx.issue.update({ where: { id: issue.id }, data: { ...data, updatedAt: new Date(before.issue.updatedAt.getTime() + 1000) } });
        await enqueueIssueEvent(tx, { issue, projectPath: project.path, action, before, actorUserId: user.userId });
      });
    await change("close", { state: "closed", closedAt: new Date("2024-03-04T05:06:07Z"), closedById: user.userId });
    await change("reopen", { state: "opened", closedAt: null, closedById: null });
    const [closed, reopened] = await issueEvents(issue.id);
    expect(closed!.object_attributes).toMatchObject({ action: "close", state: "closed", state_id: 2 });
    expect(closed!.changes).toEqual({
      closed_at: { previous: null, current: "2024-03-04 05:06:07 UTC" },
      state_id: { previous: 1, current: 2 },
      updated_at: { previous: expect.stringMatching(HOOK_TIME), current: expect.stringMatching(HOOK_TIME) },
    });
    expect(reopened!.object_attributes).toMatchObject({ action: "reopen", state: "opened", state_id: 1 });
    expect(reopened!.changes).toMatchObject({ closed_at: { previous: "2024-03-04 05:06:07 UTC", current: null }, state_id: { previous: 2, current: 1 } });
  });
});

describe("issueChanges", () => {
  const row = (over: Partial<Issue> = {}): Issue => ({
    id: 1,
    projectId: 2,
    iid: 3,
    title: "t",
    description: null,
    state: "opened",
    confidential: false,
    discussionLocked: null,
    issueType: "issue",
    authorId: 4,
    milestoneId: null,
    dueDate: null,
    closedAt: null,
    closedById: null,
    updatedById: null,
    timeEstimate: 0,
    totalTimeSpent: 0,
    createdAt: new Date("2024-01-01T00:00:00Z"),
    updatedAt: new Date("2024-01-01T00:00:00Z"),
    ...over,
  });

  it("is empty when nothing changed, and reports time tracking and description edits", () => {
    const before = { issue: row(), labels: [], assigneeIds: [] };
    expect(issueChanges(before, before)).toEqual({});
    expect(issueChanges(before, { ...before, issue: row({ description: "d", timeEstimate: 3600, totalTimeSpent: 60 }) })).toEqual({
      description: { previous: null, current: "d" },
      time_estimate: { previous: 0, current: 3600 },
      total_time_spent: { previous: 0, current: 60 },
    });
  });

  it("compares assignees and labels as ordered id lists", () => {
    const before = { issue: row(), labels: [], assigneeIds: [5, 6] };
    expect(issueChanges(before, { ...before, assigneeIds: [5, 6] })).toEqual({});
    expect(issueChanges(before, { ...before, assigneeIds: [] })).toEqual({ assignees: { previous: [5, 6], current: [] } });
  });
});
