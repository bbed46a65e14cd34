import { describe, expect, it } from "vitest";
import { humanTime, issueEntity, taskCompletion } from "./issue.ts";

const issue = {
  id: 9,
  iid: 3,
  projectId: 4,
  projectPath: "top/sub/app",
  title: "t",
  state: "opened",
  createdAt: "2030-01-01T00:00:00.000Z",
  updatedAt: "2030-01-01T00:00:00.000Z",
  closedById: 0,
  authorId: 1,
  assigneeIds: [],
  labels: [],
  confidential: false,
  issueType: "issue",
  timeEstimate: 0,
  totalTimeSpent: 0,
  userNotesCount: 0,
  upvotes: 0,
  downvotes: 0,
} as unknown as Parameters<typeof issueEntity>[0];
const urls = { base: "http://q.example" };

describe("issue entity", () => {
  it("counts Markdown task list items (task_completion_status)", () => {
    expect(taskCompletion("- [ ] a\n* [x] b\n1. [X] c\n  + [ ] d\n- [] not\ntext [x] not")).toEqual({ count: 4, completed_count: 2 });
    expect(taskCompletion(undefined)).toEqual({ count: 0, completed_count: 0 });
  });

  it("formats time like Gitlab::TimeTrackingFormatter (8h days, 5d weeks)", () => {
    expect(humanTime(0)).toBeNull();
    expect(humanTime(90 * 60)).toBe("1h 30m");
    expect(humanTime(5 * 8 * 3600 + 8 * 3600 + 5)).toBe("1w 1d 5s");
  });

  it("makes references relative to the project, the group listed, or the instance", () => {
    const refs = (context: Parameters<typeof issueEntity>[3]["context"]) => issueEntity(issue, new Map(), urls, { context }).references;
    expect(refs({ kind: "project" })).toEqual({ short: "#3", relative: "#3", full: "top/sub/app#3" });
    expect(refs({ kind: "group", fullPath: "top/sub" })).toEqual({ short: "#3", relative: "app#3", full: "top/sub/app#3" });
    expect(refs({ kind: "group", fullPath: "top" })).toEqual({ short: "#3", relative: "top/sub/app#3", full: "top/sub/app#3" });
    expect(issueEntity(issue, new Map(), urls, { context: { kind: "instance" } })).not.toHaveProperty("subscribed");
    expect(issueEntity(issue, new Map(), urls, { context: { kind: "instance" } })).not.toHaveProperty("task_status");
  });
});
