import { describe, expect, it } from "vitest";
import { mergeRequestBasic, mergeRequestFull, mergeRequestSimple, mergeRequestUserIds, mergeRequestVersionEntity } from "./merge-request.ts";

const mr = {
  id: 9,
  iid: 3,
  projectId: 4,
  projectPath: "top/sub/app",
  title: "Draft: t",
  description: "- [x] a",
  state: "merged",
  createdAt: "2030-01-01T00:00:00.000Z",
  updatedAt: "2030-01-02T00:00:00.000Z",
  mergedAt: "2030-01-02T00:00:00.000Z",
  closedById: 0,
  mergeUserId: 7,
  authorId: 1,
  assigneeIds: [2, 99],
  reviewerIds: [3],
  labels: [{ id: 1, name: "b", color: "#ffffff", description: "<x>" }],
  sourceBranch: "feature",
  targetBranch: "main",
  sourceProjectId: 4,
  targetProjectId: 4,
  draft: true,
  squash: false,
  forceRemoveSourceBranch: true,
  allowCollaboration: false,
  mergeStatus: "can_be_merged",
  detailedMergeStatus: "not_open",
  hasConflicts: false,
  sha: "a".repeat(40),
  mergeWhenPipelineSucceeds: false,
  timeEstimate: 3600,
  totalTimeSpent: 0,
  userNotesCount: 2,
  upvotes: 1,
  downvotes: 0,
  changesCount: "",
  firstContribution: true,
  blockingDiscussionsResolved: true,
  canMerge: false,
  headPipelineId: 0,
  divergedCommitsCount: 5,
  rebaseInProgress: false,
  subscribed: false,
  latestDiffId: 0,
} as unknown as Parameters<typeof mergeRequestBasic>[0];
const urls = { base: "http://q.example" };
const user = (id: number) => ({ id, username: `u${id}`, name: `U ${id}`, state: "active" }) as never;
const users = new Map([1, 2, 3, 7].map((id) => [id, user(id)]));

describe("merge request entities", () => {
  it("shows the list item with GitLab's values: users, merged_by for merged ones, references, drafts, time stats", () => {
    const e = mergeRequestBasic(mr, users, { urls, context: { kind: "group", fullPath: "top/sub" } });
    expect(e).toMatchObject({
      merged_by: { id: 7, username: "u7" },
      merge_user: { id: 7 },
      closed_by: null,
      author: { id: 1 },
      // A user who no longer exists is left out.
      assignees: [{ id: 2 }],
      assignee: { id: 2 },
      reviewers: [{ id: 3 }],
      labels: ["b"],
      draft: true,
      work_in_progress: true,
      sha: "a".repeat(40),
      merge_commit_sha: null,
      discussion_locked: null,
      should_remove_source_branch: null,
      force_remove_source_branch: true,
      reference: "!3",
      references: { short: "!3", relative: "app!3", full: "top/sub/app!3" },
      web_url: "http://q.example/top/sub/app/-/merge_requests/3",
      time_stats: { time_estimate: 3600, total_time_spent: 0, human_time_estimate: "1h", human_total_time_spent: null },
      task_completion_status: { count: 1, completed_count: 1 },
    });
    expect(mergeRequestBasic(mr, users, { urls, context: { kind: "instance" } }).references.relative).toBe("!3");
    expect(mergeRequestBasic(mr, users, { urls, context: { kind: "project" }, withLabelsDetails: true }).labels).toEqual([
      { id: 1, name: "b", color: "#ffffff", description: "<x>", description_html: "&#60;x&#62;", text_color: "#1F1E24" },
    ]);
    expect(mergeRequestUserIds([mr])).toEqual([1, 0, 7, 2, 99, 3]);
  });

  it("shows the single view's optional fields only when asked, and the simple view's nine fields", () => {
    const full = mergeRequestFull(mr, users, { urls, context: { kind: "project" } });
    expect(full).toMatchObject({ changes_count: null, diff_refs: null, pipeline: null, first_contribution: true, user: { can_merge: false } });
    expect(full).not.toHaveProperty("head_pipeline");
    expect(full).not.toHaveProperty("diverged_commits_count");
    expect(full).not.toHaveProperty("rebase_in_progress");
    const asked = mergeRequestFull(mr, users, {
      urls,
      context: { kind: "project" },
      headPipeline: null,
      includeDivergedCommitsCount: true,
      includeRebaseInProgress: true,
    });
    expect(asked).toMatchObject({ head_pipeline: null, diverged_commits_count: 5, rebase_in_progress: false });
    expect(Object.keys(mergeRequestSimple(mr, urls))).toEqual([
      "id",
      "iid",
      "project_id",
      "title",
      "description",
      "state",
      "created_at",
      "updated_at",
      "web_url",
    ]);
  });

  it("shows a diff version as Entities::MergeRequestDiff", () => {
    const v = {
      id: 5,
      mergeRequestId: 9,
      headCommitSha: "h",
      baseCommitSha: "b",
      startCommitSha: "s",
      createdAt: "2030-01-01T00:00:00.000Z",
      state: "empty",
      realSize: "",
      patchIdSha: "",
      commitShas: [],
    } as never;
    expect(mergeRequestVersionEntity(v)).toEqual({
      id: 5,
      head_commit_sha: "h",
      base_commit_sha: "b",
      start_commit_sha: "s",
      created_at: "2030-01-01T00:00:00.000Z",
      merge_request_id: 9,
      state: "empty",
      real_size: null,
      patch_id_sha: null,
    });
  });
});
