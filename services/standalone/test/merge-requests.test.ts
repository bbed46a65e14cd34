import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { addMember, commitFiles, createMergeRequest, createProject, GitClient, projectWithMergeRequest } from "./mr-api.ts";

let s: TestStack;
let git: GitClient;
const { post, put, del } = jsonRequests(() => s);

beforeAll(async () => {
  s = await startTestStack();
  git = new GitClient(s);
});
afterAll(async () => {
  git?.cleanUp();
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
      // The answer runs the git check (mergeStatusFor), so the status is known at once.
      merge_status: "can_be_merged",
      detailed_merge_status: "mergeable",
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
      reference: "!1",
      references: { short: "!1", relative: "!1", full: `${project.path_with_namespace}!1` },
      web_url: `${s.url}/${project.path_with_namespace}/-/merge_requests/1`,
      task_completion_status: { count: 2, completed_count: 1 },
      first_contribution: true,
      user: { can_merge: expect.any(Boolean) },
      head_pipeline: null,
      pipeline: null,
      subscribed: false,
      merge_error: null,
    });
    expect(mr.diff_refs.head_sha).toBe(commit.id);
    expect(mr.diff_refs.base_sha).toBe(mr.diff_refs.start_sha);
    // GitLab's order of the fields (MergeRequestBasic, then MergeRequest's).
    expect(Object.keys(mr)).toEqual([
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
      "closed_at",
      "target_branch",
      "source_branch",
      "user_notes_count",
      "upvotes",
      "downvotes",
      "author",
      "assignees",
      "assignee",
      "reviewers",
      "source_project_id",
      "target_project_id",
      "labels",
      "draft",
      "imported",
      "imported_from",
      "work_in_progress",
      "milestone",
      "merge_when_pipeline_succeeds",
      "merge_status",
      "detailed_merge_status",
      "merge_after",
      "sha",
      "merge_commit_sha",
      "squash_commit_sha",
      "discussion_locked",
      "should_remove_source_branch",
      "force_remove_source_branch",
      "prepared_at",
      "allow_collaboration",
      "allow_maintainer_to_push",
      "reference",
      "references",
      "web_url",
      "time_stats",
      "squash",
      "squash_on_merge",
      "task_completion_status",
      "has_conflicts",
      "blocking_discussions_resolved",
      "subscribed",
      "changes_count",
      "latest_build_started_at",
      "latest_build_finished_at",
      "first_deployed_to_production_at",
      "pipeline",
      "head_pipeline",
      "diff_refs",
      "merge_error",
      "first_contribution",
      "user",
    ]);

    const got = await jsonBody(await s.api(`/projects/${project.id}/merge_requests/1`), 200);
    expect(got).toEqual({ ...mr, updated_at: got.updated_at });
    const asked = await jsonBody(
      await s.api(`/projects/${project.id}/merge_requests/1?include_diverged_commits_count=true&include_rebase_in_progress=true`),
      200,
    );
    expect(asked).toMatchObject({ diverged_commits_count: 0, rebase_in_progress: false });
  });

  it("answers GitLab's statuses and bodies for bad input", async () => {
    const project = await createProject(s);
    await commitFiles(s, project.id, "topic", { "t.txt": "t" }, { startBranch: "main" });
    const base = `/projects/${project.id}/merge_requests`;
    expect(await jsonBody(await post(base, {}), 400)).toEqual({ error: "title is missing, source_branch is missing, target_branch is missing" });
    expect(await jsonBody(await post(base, { title: "x", source_branch: "main", target_branch: "main" }), 422)).toEqual({
      message: ["You can't use same project/branch for source and target"],
    });
    expect(await jsonBody(await post(base, { title: "x", source_branch: "nope", target_branch: "main" }), 400)).toEqual({
      message: { source_branch: ["does not exist"] },
    });
    await createMergeRequest(s, project.id, { source_branch: "topic" });
    expect(await jsonBody(await post(base, { title: "again", source_branch: "topic", target_branch: "main" }), 409)).toEqual({
      message: ["Another open merge request already exists for this source branch: !1"],
    });
    expect(await jsonBody(await post(base, { title: "x", source_branch: "topic", target_branch: "main" }, null), 401)).toEqual({ message: "401 Unauthorized" });
    const reporter = await createUserWithToken(s);
    await addMember(s, project.id, reporter.id, 20);
    expect(await jsonBody(await post(base, { title: "x", source_branch: "topic", target_branch: "main" }, reporter.token), 403)).toEqual({
      message: "403 Forbidden",
    });
    expect(await jsonBody(await s.api(`${base}/99`), 404)).toEqual({ message: "404 Not found" });
    expect(await jsonBody(await s.api(`${base}/99999999999`), 404)).toEqual({ message: "404 Not found" });
    const guest = await createUserWithToken(s);
    await addMember(s, project.id, guest.id, 10);
    expect(await jsonBody(await s.api(`${base}/1`, { token: guest.token }), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await s.api(`${base}/1`, { token: null }), 404)).toEqual({ message: "404 Project Not Found" });
  });
});

describe("the merge request lifecycle", () => {
  it("follows pushes with the git CLI: new versions, the head ref, changes, diffs, commits and the commit's merge requests", async () => {
    const { project, mr, commit } = await projectWithMergeRequest(s, { mr: { description: "Closes #1 and mentions #2" } });
    const dir = await git.clone(project, "feature");
    const head = await git.pushCommits(dir, "feature", [
      { file: "two.txt", content: "two\n", message: "Add two" },
      { file: "three.txt", content: "three\n", message: "Add three" },
    ]);
    const versions = await waitFor(async () => {
      const list = await jsonBody(await s.api(`/projects/${project.id}/merge_requests/1/versions`), 200);
      return list.length === 2 ? list : undefined;
    });
    expect(versions[0]).toMatchObject({
      head_commit_sha: head,
      base_commit_sha: mr.diff_refs.base_sha,
      merge_request_id: mr.id,
      state: "collected",
      real_size: "3",
    });
    expect(versions[1]).toMatchObject({ head_commit_sha: commit.id, real_size: "1" });
    expect(Object.keys(versions[0])).toEqual([
      "id",
      "head_commit_sha",
      "base_commit_sha",
      "start_commit_sha",
      "created_at",
      "merge_request_id",
      "state",
      "real_size",
      "patch_id_sha",
    ]);
    // The head ref follows the source branch.
    expect(await git.run(dir, "ls-remote", "origin", "refs/merge-requests/1/head")).toBe(`${head}\trefs/merge-requests/1/head`);

    const version = await jsonBody(await s.api(`/projects/${project.id}/merge_requests/1/versions/${versions[0].id}`), 200);
    expect(version.commits.map((c: { title: string }) => c.title)).toEqual(["Add three", "Add two", "Add feature"]);
    expect(version.diffs.map((d: { new_path: string }) => d.new_path).sort()).toEqual(["feature.txt", "three.txt", "two.txt"]);
    expect(await jsonBody(await s.api(`/projects/${project.id}/merge_requests/1/versions/${versions[0].id + 1000}`), 404)).toEqual({
      message: "404 Not found",
    });

    const single = await jsonBody(await s.api(`/projects/${project.id}/merge_requests/1`), 200);
    expect(single).toMatchObject({ sha: head, changes_count: "3", diff_refs: { head_sha: head } });

    const changes = await jsonBody(await s.api(`/projects/${project.id}/merge_requests/1/changes`), 200);
    expect(changes).toMatchObject({ iid: 1, overflow: false });
    expect(changes.changes.find((c: { new_path: string }) => c.new_path === "two.txt")).toMatchObject({ new_file: true, diff: "@@ -0,0 +1 @@\n+two\n" });

    const diffs = await s.api(`/projects/${project.id}/merge_requests/1/diffs?per_page=2`);
    expect(diffs.headers.get("x-total")).toBe("3");
    expect(await jsonBody(diffs, 200)).toHaveLength(2);

    const commits = await s.api(`/projects/${project.id}/merge_requests/1/commits`);
    expect(commits.headers.get("x-total")).toBe("3");
    expect((await jsonBody(commits, 200)).map((c: { id: string }) => c.id)[0]).toBe(head);

    const bySha = await jsonBody(await s.api(`/projects/${project.id}/repository/commits/${commit.id}/merge_requests`), 200);
    expect(bySha.map((m: { iid: number }) => m.iid)).toEqual([1]);
    expect(await jsonBody(await s.api(`/projects/${project.id}/repository/commits/${commit.id}/merge_requests?state=closed`), 200)).toEqual([]);
    expect(await jsonBody(await s.api(`/projects/${project.id}/repository/commits/${"f".repeat(40)}/merge_requests`), 404)).toEqual({
      message: "404 Commit Not Found",
    });

    // Issues it closes (into the default branch) and mentions.
    for (const title of ["first", "second"]) await jsonBody(await post(`/projects/${project.id}/issues`, { title }), 201);
    const closes = await jsonBody(await s.api(`/projects/${project.id}/merge_requests/1/closes_issues`), 200);
    expect(closes.map((i: { iid: number }) => i.iid)).toEqual([1]);
    expect(closes[0]._links).toBeUndefined();
    const related = await jsonBody(await s.api(`/projects/${project.id}/merge_requests/1/related_issues`), 200);
    expect(related.map((i: { iid: number }) => i.iid)).toEqual([1, 2]);

    const participants = await jsonBody(await s.api(`/projects/${project.id}/merge_requests/1/participants`), 200);
    expect(participants.map((u: { username: string }) => u.username)).toEqual(["root"]);
  });

  it("marks a merge request merged when its source is pushed into the target by hand", async () => {
    const { project, commit } = await projectWithMergeRequest(s);
    const dir = await git.clone(project, "feature");
    await git.run(dir, "push", "origin", "feature:main");
    const merged = await waitFor(async () => {
      const mr = await jsonBody(await s.api(`/projects/${project.id}/merge_requests/1`), 200);
      return mr.state === "merged" ? mr : undefined;
    });
    expect(merged).toMatchObject({
      merge_commit_sha: commit.id,
      merged_by: { username: "root" },
      merge_user: { username: "root" },
      detailed_merge_status: "not_open",
    });
    expect(merged.merged_at).toBeTruthy();
  });

  it("updates through gitbeaker: draft titles, labels, assignees, reviewers, state events; deletes as an owner", async () => {
    const { project } = await projectWithMergeRequest(s);
    const developer = await createUserWithToken(s);
    await addMember(s, project.id, developer.id, 30);
    const api = s.gitlab();
    const drafted = await api.MergeRequests.edit(project.id, 1, {
      title: "Draft: the feature",
      labels: "a,b",
      assigneeIds: [developer.id],
      reviewerIds: [developer.id],
    });
    expect(drafted).toMatchObject({
      draft: true,
      detailed_merge_status: "draft_status",
      labels: ["a", "b"],
      assignee: { id: developer.id },
      reviewers: [{ id: developer.id }],
    });
    const closed = await api.MergeRequests.edit(project.id, 1, { stateEvent: "close" });
    expect(closed).toMatchObject({ state: "closed", closed_by: { username: "root" }, detailed_merge_status: "not_open" });
    const reopened = await jsonBody(await put(`/projects/${project.id}/merge_requests/1`, { state_event: "reopen", title: "The feature" }), 200);
    expect(reopened).toMatchObject({ state: "opened", closed_by: null, closed_at: null, draft: false });
    expect(await jsonBody(await put(`/projects/${project.id}/merge_requests/1`, {}), 400)).toEqual({
      error:
        "assignee_id, assignee_ids, reviewer_ids, description, labels, add_labels, remove_labels, milestone_id, remove_source_branch, allow_collaboration, allow_maintainer_to_push, squash, target_branch, title, state_event, discussion_locked are missing, at least one parameter must be provided",
    });
    expect(await jsonBody(await put(`/projects/${project.id}/merge_requests/1`, { title: " " }), 400)).toEqual({ error: "title is empty" });
    expect(await jsonBody(await del(`/projects/${project.id}/merge_requests/1`, developer.token), 403)).toEqual({ message: "403 Forbidden" });
    await api.MergeRequests.remove(project.id, 1);
    expect(await jsonBody(await s.api(`/projects/${project.id}/merge_requests/1`), 404)).toEqual({ message: "404 Not found" });
  });
});

describe("the project's merge request switches", () => {
  it("shows merge requests, snippets and environments enabled, and who can create merge requests in it", async () => {
    const project = await createProject(s);
    const reporter = await createUserWithToken(s);
    await addMember(s, project.id, reporter.id, 20);
    const asRoot = await jsonBody(await s.api(`/projects/${project.id}`), 200);
    expect(asRoot).toMatchObject({
      merge_requests_enabled: true,
      merge_requests_access_level: "enabled",
      snippets_enabled: true,
      snippets_access_level: "enabled",
      environments_access_level: "enabled",
      can_create_merge_request_in: true,
    });
    const asReporter = await jsonBody(await s.api(`/projects/${project.id}`, { token: reporter.token }), 200);
    expect(asReporter.can_create_merge_request_in).toBe(false);
  });
});
