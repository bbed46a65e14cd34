// A project's merge request settings and approval configuration, and merge request approvals, end
// to end through the REST API: plain fetch with exact statuses and bodies, and @gitbeaker/rest
// (python-gitlab: python-merge-request-approvals.test.ts).
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { addMember, commitFiles, projectWithMergeRequest } from "./mr-api.ts";

let s: TestStack;
let project: { id: number; path_with_namespace: string };
let developer: { id: number; token: string };
let maintainer: { id: number; token: string };

const { post, put } = jsonRequests(() => s);

beforeAll(async () => {
  s = await startTestStack();
  project = await jsonBody(await post("/projects", { name: "approvals", visibility: "public", initialize_with_readme: true }), 201);
  developer = await createUserWithToken(s);
  maintainer = await createUserWithToken(s);
  await jsonBody(await post(`/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 }), 201);
  await jsonBody(await post(`/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 }), 201);
}, 60_000);
afterAll(() => s?.destroy());

describe("project merge settings", () => {
  it("answers GitLab's defaults, and creates a project with the settings given", async () => {
    const got = await jsonBody(await s.api(`/projects/${project.id}`), 200);
    expect(got).toMatchObject({
      merge_method: "merge",
      squash_option: "default_off",
      only_allow_merge_if_pipeline_succeeds: false,
      allow_merge_on_skipped_pipeline: null,
      only_allow_merge_if_all_discussions_are_resolved: false,
      remove_source_branch_after_merge: true,
      merge_commit_template: null,
      squash_commit_template: null,
      autoclose_referenced_issues: true,
      approvals_before_merge: 0,
    });
    const made = await jsonBody(
      await post("/projects", { name: "ff-only", merge_method: "ff", squash_option: "always", only_allow_merge_if_pipeline_succeeds: true }),
      201,
    );
    expect(made).toMatchObject({ merge_method: "ff", squash_option: "always", only_allow_merge_if_pipeline_succeeds: true });
    expect(await jsonBody(await post("/projects", { name: "bad", merge_method: "octopus" }), 400)).toEqual({
      error: "merge_method does not have a valid value",
    });
    expect(await jsonBody(await s.api("/projects?search=bad&owned=true"), 200)).toEqual([]);
  });

  it("updates the settings with PUT (gitbeaker Projects.edit) and refuses invalid values", async () => {
    const edited = await s.gitlab(maintainer.token).Projects.edit(project.id, {
      mergeMethod: "rebase_merge",
      onlyAllowMergeIfAllDiscussionsAreResolved: true,
      allowMergeOnSkippedPipeline: true,
      removeSourceBranchAfterMerge: false,
      squashOption: "default_on",
      mergeCommitTemplate: "Merge %{source_branch}",
      autocloseReferencedIssues: false,
    });
    expect(edited).toMatchObject({
      merge_method: "rebase_merge",
      only_allow_merge_if_all_discussions_are_resolved: true,
      allow_merge_on_skipped_pipeline: true,
      remove_source_branch_after_merge: false,
      squash_option: "default_on",
      merge_commit_template: "Merge %{source_branch}",
      squash_commit_template: null,
      autoclose_referenced_issues: false,
    });
    expect(await jsonBody(await s.api(`/projects/${project.id}`, { token: developer.token }), 200)).toMatchObject({ merge_method: "rebase_merge" });
    expect(await jsonBody(await put(`/projects/${project.id}`, { squash_option: "sometimes" }), 400)).toEqual({
      error: "squash_option does not have a valid value",
    });
    expect(await jsonBody(await put(`/projects/${project.id}`, { merge_commit_template: "x".repeat(501) }), 400)).toEqual({
      message: { "project_setting.merge_commit_template": ["is too long (maximum is 500 characters)"] },
    });
    expect(await jsonBody(await put(`/projects/${project.id}`, { merge_method: "ff" }, developer.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await put(`/projects/${project.id}`, { merge_method: "merge" }), 200)).toMatchObject({ merge_method: "merge" });
  });
});

describe("project approval configuration", () => {
  it("reads and changes the approval settings as a Maintainer (gitbeaker showConfiguration/editConfiguration)", async () => {
    expect(await jsonBody(await s.api(`/projects/${project.id}/approvals`, { token: maintainer.token }), 200)).toEqual({
      approvers: [],
      approver_groups: [],
      approvals_before_merge: 0,
      reset_approvals_on_push: true,
      selective_code_owner_removals: false,
      disable_overriding_approvers_per_merge_request: false,
      merge_requests_author_approval: false,
      merge_requests_disable_committers_approval: false,
      require_password_to_approve: false,
      require_reauthentication_to_approve: false,
    });
    const api = s.gitlab(maintainer.token);
    const edited = await api.MergeRequestApprovals.editConfiguration(project.id, { resetApprovalsOnPush: false, mergeRequestsAuthorApproval: true });
    expect(edited).toMatchObject({ approvals_before_merge: 0, reset_approvals_on_push: false, merge_requests_author_approval: true });
    const counted = await post(`/projects/${project.id}/approvals`, { approvals_before_merge: 1 }, maintainer.token);
    expect(await jsonBody(counted, 201)).toMatchObject({ approvals_before_merge: 1, reset_approvals_on_push: false });
    expect(await api.MergeRequestApprovals.showConfiguration(project.id)).toMatchObject({
      approvals_before_merge: 1,
      reset_approvals_on_push: false,
      merge_requests_author_approval: true,
      merge_requests_disable_committers_approval: false,
    });
    expect(await jsonBody(await s.api(`/projects/${project.id}`), 200)).toMatchObject({ approvals_before_merge: 1 });
    const res = await post(`/projects/${project.id}/approvals`, { merge_requests_disable_committers_approval: true });
    expect(await jsonBody(res, 201)).toMatchObject({ merge_requests_disable_committers_approval: true, approvals_before_merge: 1 });
    // Back to GitLab's defaults for the approval tests below.
    await jsonBody(
      await post(`/projects/${project.id}/approvals`, {
        approvals_before_merge: 0,
        reset_approvals_on_push: true,
        merge_requests_author_approval: false,
        merge_requests_disable_committers_approval: false,
      }),
      201,
    );
  });

  it("answers GitLab's errors: anonymous 401, Developer 403, no setting 400, negative count 400", async () => {
    expect(await jsonBody(await s.api(`/projects/${project.id}/approvals`, { token: null }), 401)).toEqual({ message: "401 Unauthorized" });
    expect(await jsonBody(await post(`/projects/${project.id}/approvals`, { approvals_before_merge: 1 }, null), 401)).toEqual({
      message: "401 Unauthorized",
    });
    expect(await jsonBody(await s.api(`/projects/${project.id}/approvals`, { token: developer.token }), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await post(`/projects/${project.id}/approvals`, { approvals_before_merge: 1 }, developer.token), 403)).toEqual({
      message: "403 Forbidden",
    });
    expect(await jsonBody(await post(`/projects/${project.id}/approvals`, {}), 400)).toEqual({
      error:
        "approvals_before_merge, reset_approvals_on_push, selective_code_owner_removals, disable_overriding_approvers_per_merge_request, merge_requests_author_approval, merge_requests_disable_committers_approval, require_password_to_approve, require_reauthentication_to_approve are missing, at least one parameter must be provided",
    });
    expect(await jsonBody(await post(`/projects/${project.id}/approvals`, { approvals_before_merge: -1 }), 400)).toEqual({
      message: { approvals_before_merge: ["must be greater than or equal to 0"] },
    });
    expect(await jsonBody(await s.api("/projects/999999/approvals"), 404)).toEqual({ message: "404 Project Not Found" });
  });
});

describe("merge request approvals", () => {
  it("approves with gitbeaker, answers GitLab's approvals entity, and unapproves", async () => {
    const { project, mr, commit } = await projectWithMergeRequest(s, { visibility: "public", mr: { title: "Needs approval" } });
    await addMember(s, project.id, maintainer.id, 40);
    await addMember(s, project.id, developer.id, 30);
    const base = `/projects/${project.id}/merge_requests/${mr.iid}`;
    const api = s.gitlab(maintainer.token);
    const approved = await api.MergeRequestApprovals.approve(project.id, mr.iid, { sha: commit.id });
    expect(approved).toMatchObject({ approved: true, user_has_approved: true, user_can_approve: false });
    const me = await jsonBody(await s.api("/user", { token: maintainer.token }), 200);
    const body = await jsonBody(await s.api(`${base}/approvals`, { token: developer.token }), 200);
    expect(body).toEqual({
      id: mr.id,
      iid: mr.iid,
      project_id: project.id,
      title: "Needs approval",
      description: null,
      state: "opened",
      created_at: mr.created_at,
      updated_at: expect.any(String),
      merge_status: expect.any(String),
      approved: true,
      approvals_required: 0,
      approvals_left: 0,
      require_password_to_approve: false,
      approved_by: [
        {
          user: {
            id: maintainer.id,
            username: me.username,
            name: me.name,
            state: "active",
            locked: false,
            avatar_url: me.avatar_url,
            web_url: me.web_url,
          },
          approved_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        },
      ],
      suggested_approvers: [],
      approvers: [],
      approver_groups: [],
      user_has_approved: false,
      user_can_approve: true,
      approval_rules_left: [],
      has_approval_rules: false,
      merge_request_approvers_available: false,
      multiple_approval_rules_available: false,
      invalid_approvers_rules: [],
    });
    expect(await api.MergeRequestApprovals.showConfiguration(project.id, { mergerequestIId: mr.iid })).toMatchObject({ user_has_approved: true });
    expect(await api.MergeRequestApprovals.showApprovalState(project.id, mr.iid)).toEqual({ approval_rules_overwritten: false, rules: [] });
    // Anonymous readers of a public project see the state.
    expect(await jsonBody(await s.api(`${base}/approvals`, { token: null }), 200)).toMatchObject({ approved: true, user_can_approve: false });

    const unapproved = await jsonBody(await post(`${base}/unapprove`, {}, maintainer.token), 201);
    expect(unapproved).toMatchObject({ approved: false, approved_by: [], user_has_approved: false, user_can_approve: true });
    await api.MergeRequestApprovals.approve(project.id, mr.iid);
    await api.MergeRequestApprovals.unapprove(project.id, mr.iid);
    expect(await jsonBody(await s.api(`${base}/approvals`), 200)).toMatchObject({ approved: false, approved_by: [] });
  });

  it("answers GitLab's errors: 401 twice or as the author, 409 for a stale sha, 403, 404", async () => {
    const { project, mr, commit } = await projectWithMergeRequest(s, { visibility: "public" });
    await addMember(s, project.id, maintainer.id, 40);
    const reporter = await createUserWithToken(s);
    await addMember(s, project.id, reporter.id, 20);
    const base = `/projects/${project.id}/merge_requests/${mr.iid}`;
    const unauthorized = { message: "401 Unauthorized" };
    expect(await jsonBody(await post(`${base}/approve`, {}, null), 401)).toEqual(unauthorized);
    // root wrote the merge request; authors may not approve by default.
    expect(await jsonBody(await post(`${base}/approve`, {}), 401)).toEqual(unauthorized);
    expect(await jsonBody(await post(`${base}/approve`, { sha: "f".repeat(40) }, maintainer.token), 409)).toEqual({
      message: `SHA does not match HEAD of source branch: ${commit.id}`,
    });
    expect(await jsonBody(await post(`${base}/approve`, {}, reporter.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await post(`${base}/unapprove`, {}, maintainer.token), 404)).toEqual({ message: "404 Not Found" });
    await jsonBody(await post(`${base}/approve`, {}, maintainer.token), 201);
    expect(await jsonBody(await post(`${base}/approve`, {}, maintainer.token), 401)).toEqual(unauthorized);
    expect(await jsonBody(await post(`/projects/${project.id}/merge_requests/99/approve`, {}, maintainer.token), 404)).toEqual({ message: "404 Not found" });
    expect(await jsonBody(await s.api(`/projects/${project.id}/merge_requests/99/approvals`), 404)).toEqual({ message: "404 Not found" });
    expect(await jsonBody(await s.api(`/projects/${project.id}/merge_requests/99999999999/approval_state`), 404)).toEqual({ message: "404 Not found" });
    // The author may approve once the project allows it.
    await jsonBody(await post(`/projects/${project.id}/approvals`, { merge_requests_author_approval: true }), 201);
    expect(await jsonBody(await post(`${base}/approve`, {}), 201)).toMatchObject({
      approved_by: [{ user: { id: maintainer.id } }, { user: { username: "root" } }],
    });
  });

  it("counts approvals_before_merge and resets approvals when the source branch moves", async () => {
    const { project, mr } = await projectWithMergeRequest(s);
    await addMember(s, project.id, maintainer.id, 40);
    await addMember(s, project.id, developer.id, 30);
    await jsonBody(await post(`/projects/${project.id}/approvals`, { approvals_before_merge: 2 }), 201);
    const base = `/projects/${project.id}/merge_requests/${mr.iid}`;
    expect(await jsonBody(await post(`${base}/approve`, {}, maintainer.token), 201)).toMatchObject({
      approvals_required: 2,
      approvals_left: 1,
      approved: false,
    });
    expect(await jsonBody(await post(`${base}/approve`, {}, developer.token), 201)).toMatchObject({ approvals_left: 0, approved: true });
    await commitFiles(s, project.id, "feature", { "more.txt": "more\n" });
    const reset = await waitFor(async () => {
      const state = await jsonBody(await s.api(`${base}/approvals`), 200);
      return state.approved_by.length === 0 ? state : undefined;
    });
    expect(reset).toMatchObject({ approvals_required: 2, approvals_left: 2, approved: false });
  });
});
