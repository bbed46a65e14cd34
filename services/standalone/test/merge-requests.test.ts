import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonBody, startTestStack, type TestStack } from "./helpers.ts";
import { projectWithMergeRequest } from "./mr-api.ts";

let s: TestStack;

beforeAll(async () => {
  s = await startTestStack();
});
afterAll(async () => {
  await s?.destroy();
});

describe("POST /projects/:id/merge_requests", () => {
  it("creates a merge request with its first diff version and answers the single view", async () => {
    const { project, mr, commit } = await projectWithMergeRequest(s, { mr: { title: "Add the feature", description: "- [x] done\n- [ ] todo" } });
    expect(mr).toMatchObject({
      iid: 1,
      project_id: project.id,
      title: "Add the feature",
      state: "opened",
      source_branch: "feature",
      target_branch: "main",
      source_project_id: project.id,
      target_project_id: project.id,
      draft: false,
      work_in_progress: false,
      merge_status: "unchecked",
      detailed_merge_status: "unchecked",
      sha: commit.id,
      merge_commit_sha: null,
      author: { username: "root" },
      assignees: [],
      assignee: null,
      reviewers: [],
      labels: [],
      milestone: null,
      user_notes_count: 0,
      changes_count: "1",
      references: { short: "!1", relative: "!1", full: `${project.path_with_namespace}!1` },
      web_url: `${s.url}/${project.path_with_namespace}/-/merge_requests/1`,
      task_completion_status: { count: 2, completed_count: 1 },
      first_contribution: true,
      user: { can_merge: expect.any(Boolean) },
      head_pipeline: null,
    });
    expect(mr.diff_refs.head_sha).toBe(commit.id);
    expect(mr.diff_refs.base_sha).toBe(mr.diff_refs.start_sha);
    // GitLab's order of the list item fields.
    expect(Object.keys(mr).slice(0, 12)).toEqual([
      "id",
      "iid",
      "project_id",
      "title",
      "description",
      "state",
      "created_at",
      "updated_at",
      "merged_by",
      "merge_user",
      "merged_at",
      "closed_by",
    ]);

    const got = await jsonBody(await s.api(`/projects/${project.id}/merge_requests/1`), 200);
    expect(got).toEqual({ ...mr, updated_at: got.updated_at });
  });
});
