// Merging merge requests end to end: PUT …/merge (merge commit, squash, source branch removal,
// GitLab's refusals), auto-merge waiting on the head pipeline, PUT …/rebase and cancelling an
// auto-merge, through gitbeaker and plain fetch. Most pipeline events are published on the stack's
// bus as ci-service's publisher sends them (exact statuses and order); the last test runs a real
// pipeline with a runner.
import { Subjects, type PipelineEvent } from "@quarry/bus";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { instanceRunner, reportJob, requestJobAs } from "./ci-fixture.ts";
import { addMember, commitFiles, createMergeRequest, createProject, projectWithMergeRequest } from "./mr-api.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

let s: TestStack;
let receiver: Receiver;
const { post, put } = jsonRequests(() => s);

beforeAll(async () => {
  s = await startTestStack();
  receiver = await startReceiver();
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await s?.destroy();
});

const mrPath = (projectId: number, iid: number) => `/projects/${projectId}/merge_requests/${iid}`;
const branchGone = async (projectId: number, branch: string) => (await s.api(`/projects/${projectId}/repository/branches/${branch}`)).status === 404;

let nextPipeline = 90_000;
/** A pipeline status as ci-service publishes it on quarry.ci.pipeline. */
async function publishPipeline(projectId: number, id: number, ref: string, sha: string, status: string, second: number): Promise<void> {
  const event: PipelineEvent = {
    event_id: `e2e-${id}-${status}`,
    object_kind: "pipeline",
    user_id: 1,
    project_id: projectId,
    object_attributes: {
      id,
      iid: 1,
      ref,
      sha,
      source: "push",
      status,
      created_at: "2026-11-26 05:00:00 UTC",
      updated_at: `2026-11-26 05:20:${String(second).padStart(2, "0")} UTC`,
    },
    merge_request: null,
    commit: null,
    builds: [],
  };
  await s.bus.publish(Subjects.pipeline, event, { msgId: event.event_id });
}

/**
 * Waits until collab-service recorded a running pipeline of `feature`'s head: a sibling merge
 * request of the same head into a conflicting branch answers 422 while it would merge at once (and
 * cannot), 200 once auto-merge waits for the pipeline.
 */
async function waitForRunningPipeline(projectId: number, tag: string): Promise<void> {
  const clash = `clash-${tag}`;
  await commitFiles(s, projectId, clash, { "feature.txt": "other\n" }, { startBranch: "main" });
  const sibling = await createMergeRequest(s, projectId, { source_branch: "feature", target_branch: clash });
  await waitFor(async () => (await put(`${mrPath(projectId, sibling.iid)}/merge`, { merge_when_pipeline_succeeds: true })).status === 200, {
    message: "pipeline recorded",
  });
}

/** Publishes a running pipeline for `feature` at `sha` and waits until collab-service recorded it. */
async function publishRunningPipeline(projectId: number, id: number, sha: string, second: number): Promise<void> {
  await publishPipeline(projectId, id, "feature", sha, "running", second);
  await waitForRunningPipeline(projectId, String(id));
}

describe("PUT /projects/:id/merge_requests/:iid/merge", () => {
  it("merges with a merge commit through gitbeaker, removes the source branch and announces the push", async () => {
    const { project, mr, commit } = await projectWithMergeRequest(s, { mr: { title: "Add the feature" } });
    await jsonBody(await post(`/projects/${project.id}/hooks`, { url: `${receiver.url}/merge-${project.id}`, push_events: true }), 201);
    const before = await jsonBody(await s.api(mrPath(project.id, mr.iid)), 200);
    expect(before).toMatchObject({ merge_status: "can_be_merged", detailed_merge_status: "mergeable", has_conflicts: false, user: { can_merge: true } });

    const merged = await s.gitlab().MergeRequests.merge(project.id, mr.iid, { shouldRemoveSourceBranch: true, sha: commit.id });
    expect(merged).toMatchObject({ state: "merged", should_remove_source_branch: true, merged_by: { username: "root" }, merge_user: { username: "root" } });
    expect(merged.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(merged.merged_at).toEqual(expect.any(String));

    const main = await jsonBody(await s.api(`/projects/${project.id}/repository/commits/main`), 200);
    expect(main).toMatchObject({ id: merged.merge_commit_sha, parent_ids: [expect.any(String), commit.id] });
    expect(main.message).toBe(`Merge branch 'feature' into 'main'\n\nAdd the feature\n\nSee merge request ${project.path_with_namespace}!${mr.iid}`);
    await waitFor(() => branchGone(project.id, "feature"), { message: "source branch removed" });

    const push = await waitFor(() => receiver.requests.find((r) => r.path === `/merge-${project.id}` && r.json?.ref === "refs/heads/main"), {
      message: "push event of the merge",
    });
    expect(push.json).toMatchObject({ object_kind: "push", after: merged.merge_commit_sha, checkout_sha: merged.merge_commit_sha });

    const got = await jsonBody(await s.api(mrPath(project.id, mr.iid)), 200);
    expect(got).toMatchObject({ state: "merged", detailed_merge_status: "not_open", merge_commit_sha: merged.merge_commit_sha });
    // Merging again: not open any more.
    expect(await jsonBody(await put(`${mrPath(project.id, mr.iid)}/merge`, {}), 405)).toEqual({ message: "405 Method Not Allowed" });
  });

  it("squashes into one commit with squash_commit_message", async () => {
    const project = await createProject(s);
    await commitFiles(s, project.id, "topic", { "a.txt": "a\n" }, { startBranch: "main" });
    await commitFiles(s, project.id, "topic", { "b.txt": "b\n" });
    const mr = await createMergeRequest(s, project.id, { source_branch: "topic", title: "Two files" });
    const merged = await jsonBody(await put(`${mrPath(project.id, mr.iid)}/merge`, { squash: true, squash_commit_message: "Both files" }), 200);
    expect(merged).toMatchObject({ state: "merged", squash: true, squash_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const squash = await jsonBody(await s.api(`/projects/${project.id}/repository/commits/${merged.squash_commit_sha}`), 200);
    expect(squash).toMatchObject({ message: "Both files", parent_ids: [expect.any(String)] });
    const main = await jsonBody(await s.api(`/projects/${project.id}/repository/commits/main`), 200);
    expect(main.parent_ids[1]).toBe(merged.squash_commit_sha);
  });

  it("answers GitLab's refusals: 409 for a stale sha, 405 for conflicts and drafts, 401 without merge rights on the protected target", async () => {
    const { project, mr, commit } = await projectWithMergeRequest(s);
    expect(await jsonBody(await put(`${mrPath(project.id, mr.iid)}/merge`, { sha: "1".repeat(40) }), 409)).toEqual({
      message: `SHA does not match HEAD of source branch: ${commit.id}`,
    });

    const developer = await createUserWithToken(s);
    await addMember(s, project.id, developer.id, 30);
    await jsonBody(await post(`/projects/${project.id}/protected_branches`, { name: "main", push_access_level: 40, merge_access_level: 40 }), 201);
    const asDeveloper = await jsonBody(await s.api(mrPath(project.id, mr.iid), { token: developer.token }), 200);
    expect(asDeveloper.user).toEqual({ can_merge: false });
    expect(await jsonBody(await put(`${mrPath(project.id, mr.iid)}/merge`, {}, developer.token), 401)).toEqual({ message: "401 Unauthorized" });
    // Unauthenticated: 401 before anything.
    expect((await put(`${mrPath(project.id, mr.iid)}/merge`, {}, null)).status).toBe(401);

    await commitFiles(s, project.id, "clash", { "README.md": "mine\n" }, { startBranch: "main" });
    await commitFiles(s, project.id, "main", { "README.md": "theirs\n" });
    const clash = await createMergeRequest(s, project.id, { source_branch: "clash" });
    const shown = await jsonBody(await s.api(mrPath(project.id, clash.iid)), 200);
    expect(shown).toMatchObject({ merge_status: "cannot_be_merged", detailed_merge_status: "conflict", has_conflicts: true });
    expect(await jsonBody(await put(`${mrPath(project.id, clash.iid)}/merge`, {}), 405)).toEqual({ message: "405 Method Not Allowed" });

    const draft = await createMergeRequest(s, project.id, { source_branch: "feature", target_branch: "clash", title: "Draft: later" });
    expect((await jsonBody(await s.api(mrPath(project.id, draft.iid)), 200)).detailed_merge_status).toBe("draft_status");
    expect(await jsonBody(await put(`${mrPath(project.id, draft.iid)}/merge`, {}), 405)).toEqual({ message: "405 Method Not Allowed" });
    expect(await jsonBody(await put(`/projects/${project.id}/merge_requests/9999/merge`, {}), 404)).toEqual({ message: "404 Not found" });
  });

  it("closes the issues the description closes", async () => {
    const project = await createProject(s);
    const issue = await jsonBody(await post(`/projects/${project.id}/issues`, { title: "Broken" }), 201);
    await commitFiles(s, project.id, "fix", { "fix.txt": "fixed\n" }, { startBranch: "main" });
    const mr = await createMergeRequest(s, project.id, { source_branch: "fix", description: `Fixes #${issue.iid}` });
    await jsonBody(await put(`${mrPath(project.id, mr.iid)}/merge`, {}), 200);
    const closed = await jsonBody(await s.api(`/projects/${project.id}/issues/${issue.iid}`), 200);
    expect(closed).toMatchObject({ state: "closed", closed_by: { username: "root" } });
  });
});

describe("auto-merge", () => {
  it("waits for the running head pipeline and merges when it succeeds; cancel answers GitLab's result hash", async () => {
    const { project, mr, commit } = await projectWithMergeRequest(s);
    const id = nextPipeline++;
    await publishRunningPipeline(project.id, id, commit.id, 1);

    const waiting = await jsonBody(await put(`${mrPath(project.id, mr.iid)}/merge`, { merge_when_pipeline_succeeds: true }), 200);
    expect(waiting).toMatchObject({
      state: "opened",
      merge_when_pipeline_succeeds: true,
      merge_user: { username: "root" },
      detailed_merge_status: "ci_still_running",
    });

    // Cancel (POST, 201 with the service's result), then set it again with the newer auto_merge.
    expect(await jsonBody(await post(`${mrPath(project.id, mr.iid)}/cancel_merge_when_pipeline_succeeds`, {}), 201)).toEqual({ status: "success" });
    expect(await jsonBody(await post(`${mrPath(project.id, mr.iid)}/cancel_merge_when_pipeline_succeeds`, {}), 201)).toEqual({
      message: "Can't cancel the automatic merge",
      status: "error",
      http_status: 406,
    });
    await jsonBody(await put(`${mrPath(project.id, mr.iid)}/merge`, { auto_merge: true }), 200);

    await publishPipeline(project.id, id, "feature", commit.id, "success", 2);
    const merged = await waitFor(async () => {
      const m = await jsonBody(await s.api(mrPath(project.id, mr.iid)), 200);
      return m.state === "merged" ? m : null;
    });
    expect(merged).toMatchObject({ merge_user: { username: "root" }, merge_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
  });

  it("refuses auto-merge with 405 when the head pipeline failed, and merges at once without a pipeline", async () => {
    const { project, mr, commit } = await projectWithMergeRequest(s);
    const id = nextPipeline++;
    // Running first: once recorded, auto-merge waits (it never merges at once from here on).
    await publishRunningPipeline(project.id, id, commit.id, 3);
    await jsonBody(await put(`${mrPath(project.id, mr.iid)}/merge`, { merge_when_pipeline_succeeds: true }), 200);
    await publishPipeline(project.id, id, "feature", commit.id, "failed", 4);
    const refused = await waitFor(async () => {
      const res = await put(`${mrPath(project.id, mr.iid)}/merge`, { merge_when_pipeline_succeeds: true });
      if (res.status === 405) return res;
      await res.text();
      return null;
    });
    expect(await jsonBody(refused, 405)).toEqual({ message: "405 Method Not Allowed" });
    // A failed pipeline leaves the auto-merge set (GitLab: a retried job may still succeed).
    expect(await jsonBody(await s.api(mrPath(project.id, mr.iid)), 200)).toMatchObject({ state: "opened", merge_when_pipeline_succeeds: true });

    const other = await projectWithMergeRequest(s);
    const now = await jsonBody(await put(`${mrPath(other.project.id, other.mr.iid)}/merge`, { merge_when_pipeline_succeeds: true }), 200);
    expect(now.state).toBe("merged");
  });
});

describe("PUT /projects/:id/merge_requests/:iid/rebase", () => {
  it("rebases the source branch onto the target before answering 202; 403 for who may not push it", async () => {
    const { project, mr } = await projectWithMergeRequest(s);
    const target = await commitFiles(s, project.id, "main", { "main.txt": "moved\n" });
    const reporter = await createUserWithToken(s);
    await addMember(s, project.id, reporter.id, 20);
    expect(await jsonBody(await put(`${mrPath(project.id, mr.iid)}/rebase`, {}, reporter.token), 403)).toEqual({
      message: "403 Forbidden - Cannot push to source branch",
    });
    expect(await jsonBody(await put(`${mrPath(project.id, mr.iid)}/rebase`, { skip_ci: true }), 202)).toEqual({ rebase_in_progress: false });
    const head = await jsonBody(await s.api(`/projects/${project.id}/repository/commits/feature`), 200);
    expect(head.parent_ids).toEqual([target.id]);
    const rebasedWithGitbeaker = await s.gitlab().MergeRequests.rebase(project.id, mr.iid);
    expect(rebasedWithGitbeaker).toMatchObject({ rebase_in_progress: false });
  });
});

describe("project merge settings", () => {
  it("fast-forward projects ask for a rebase when the target moved, then merge without a merge commit", async () => {
    const { project, mr } = await projectWithMergeRequest(s);
    await jsonBody(await put(`/projects/${project.id}`, { merge_method: "ff" }), 200);
    await commitFiles(s, project.id, "main", { "main.txt": "moved\n" });
    expect((await jsonBody(await s.api(mrPath(project.id, mr.iid)), 200)).detailed_merge_status).toBe("need_rebase");
    expect(await jsonBody(await put(`${mrPath(project.id, mr.iid)}/merge`, {}), 405)).toEqual({ message: "405 Method Not Allowed" });

    await jsonBody(await put(`${mrPath(project.id, mr.iid)}/rebase`, {}), 202);
    const rebased = await jsonBody(await s.api(`/projects/${project.id}/repository/commits/feature`), 200);
    // The push refresh records the rebased head; then nothing blocks the fast-forward.
    const ready = await waitFor(async () => {
      const m = await jsonBody(await s.api(mrPath(project.id, mr.iid)), 200);
      return m.sha === rebased.id && m.detailed_merge_status === "mergeable" ? m : null;
    });
    expect(ready.merge_status).toBe("can_be_merged");
    const merged = await jsonBody(await put(`${mrPath(project.id, mr.iid)}/merge`, { sha: rebased.id }), 200);
    expect(merged).toMatchObject({ state: "merged", merge_commit_sha: null });
    expect((await jsonBody(await s.api(`/projects/${project.id}/repository/commits/main`), 200)).id).toBe(rebased.id);
  });

  it("blocks merging until the head pipeline succeeded when pipelines must succeed", async () => {
    const { project, mr, commit } = await projectWithMergeRequest(s);
    await jsonBody(await put(`/projects/${project.id}`, { only_allow_merge_if_pipeline_succeeds: true }), 200);
    expect((await jsonBody(await s.api(mrPath(project.id, mr.iid)), 200)).detailed_merge_status).toBe("ci_must_pass");
    expect(await jsonBody(await put(`${mrPath(project.id, mr.iid)}/merge`, {}), 405)).toEqual({ message: "405 Method Not Allowed" });
    const id = nextPipeline++;
    await publishPipeline(project.id, id, "feature", commit.id, "running", 7);
    await waitFor(async () => (await jsonBody(await s.api(mrPath(project.id, mr.iid)), 200)).detailed_merge_status === "ci_still_running");
    await publishPipeline(project.id, id, "feature", commit.id, "success", 8);
    await waitFor(async () => (await jsonBody(await s.api(mrPath(project.id, mr.iid)), 200)).detailed_merge_status === "mergeable");
    expect((await jsonBody(await put(`${mrPath(project.id, mr.iid)}/merge`, {}), 200)).state).toBe("merged");
  });

  it("squashes every merge when the project's squash_option is always", async () => {
    const project = await createProject(s);
    await jsonBody(await put(`/projects/${project.id}`, { squash_option: "always" }), 200);
    await commitFiles(s, project.id, "topic", { "a.txt": "a\n" }, { startBranch: "main" });
    await commitFiles(s, project.id, "topic", { "b.txt": "b\n" });
    const mr = await createMergeRequest(s, project.id, { source_branch: "topic", title: "Squashed by the project" });
    const merged = await jsonBody(await put(`${mrPath(project.id, mr.iid)}/merge`, {}), 200);
    expect(merged.squash_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    const squash = await jsonBody(await s.api(`/projects/${project.id}/repository/commits/${merged.squash_commit_sha}`), 200);
    expect(squash.message).toBe("Squashed by the project");
  });

  it("waits for approvals_before_merge approvals (not_approved, 405) and merges once approved", async () => {
    const { project, mr } = await projectWithMergeRequest(s);
    await jsonBody(await post(`/projects/${project.id}/approvals`, { approvals_before_merge: 1 }), 201);
    expect((await jsonBody(await s.api(mrPath(project.id, mr.iid)), 200)).detailed_merge_status).toBe("not_approved");
    expect(await jsonBody(await put(`${mrPath(project.id, mr.iid)}/merge`, {}), 405)).toEqual({ message: "405 Method Not Allowed" });
    const approver = await createUserWithToken(s);
    await addMember(s, project.id, approver.id, 40);
    await jsonBody(await post(`${mrPath(project.id, mr.iid)}/approve`, {}, approver.token), 201);
    expect((await jsonBody(await s.api(mrPath(project.id, mr.iid)), 200)).detailed_merge_status).toBe("mergeable");
    expect((await jsonBody(await put(`${mrPath(project.id, mr.iid)}/merge`, {}), 200)).state).toBe("merged");
  });
});

describe("auto-merge with ci-service's pipelines", () => {
  it("merges when a runner finishes the head pipeline's job", async () => {
    const project = await createProject(s);
    await commitFiles(s, project.id, "main", { ".gitlab-ci.yml": 'test:\n  script: echo ok\n  rules:\n    - if: $CI_COMMIT_BRANCH == "feature"\n' });
    const commit = await commitFiles(s, project.id, "feature", { "feature.txt": "one\n" }, { startBranch: "main" });
    const mr = await createMergeRequest(s, project.id, { source_branch: "feature" });
    // ci-service creates the push pipeline and announces it; collab-service follows it as head pipeline.
    await waitForRunningPipeline(project.id, "ci");
    const waiting = await jsonBody(await put(`${mrPath(project.id, mr.iid)}/merge`, { merge_when_pipeline_succeeds: true, sha: commit.id }), 200);
    expect(waiting).toMatchObject({ state: "opened", merge_when_pipeline_succeeds: true, head_pipeline: { sha: commit.id, ref: "feature" } });

    const runner = await instanceRunner(s);
    const job = await requestJobAs(s, runner);
    await reportJob(s, job, "success");
    const merged = await waitFor(async () => {
      const m = await jsonBody(await s.api(mrPath(project.id, mr.iid)), 200);
      return m.state === "merged" ? m : null;
    });
    expect(merged).toMatchObject({ merge_user: { username: "root" }, head_pipeline: { status: "success" } });
    expect((await jsonBody(await s.api(`/projects/${project.id}/repository/commits/main`), 200)).parent_ids[1]).toBe(commit.id);
  });
});
