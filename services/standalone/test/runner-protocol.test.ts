// The runner's side of the API over HTTP, as gitlab-runner speaks it: job requests, state
// updates, trace appends and registration.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";

const REGISTRATION_TOKEN = "GR1348941-test-registration";
const CI = `
stages: [build, test]
build:
  stage: build
  script: [echo building]
test:
  stage: test
  script: [exit 1]
`;

let s: TestStack;
let runnerToken: string;
let projectId: number;

beforeAll(async () => {
  s = await startTestStack(undefined, { jobRequestWaitMs: 0, ciSettings: { runnerRegistrationToken: REGISTRATION_TOKEN } });
  const runner = await s.api("/user/runners", { method: "POST", json: { runner_type: "instance_type", description: "http" } });
  runnerToken = ((await runner.json()) as { token: string }).token;
  const project = await s.api("/projects", { method: "POST", json: { name: "runner-protocol", initialize_with_readme: true } });
  projectId = ((await project.json()) as { id: number }).id;
}, 120_000);
afterAll(() => s?.destroy());

const requestJob = (token = runnerToken) =>
  fetch(`${s.url}/api/v4/jobs/request`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      token,
      system_id: "s_0123456789ab",
      info: { name: "gitlab-runner", version: "17.0.0", platform: "linux", architecture: "amd64", executor: "shell" },
    }),
  });
const trace = (id: number, token: string, start: number, text: string) =>
  fetch(`${s.url}/api/v4/jobs/${id}/trace`, {
    method: "PATCH",
    headers: { "JOB-TOKEN": token, "Content-Type": "text/plain", "Content-Range": `${start}-${start + Buffer.byteLength(text) - 1}` },
    body: text,
  });
const update = (id: number, body: Record<string, unknown>) =>
  fetch(`${s.url}/api/v4/jobs/${id}`, { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

interface JobResponse {
  id: number;
  token: string;
  job_info: { name: string; stage: string; project_id: number };
  git_info: { repo_url: string; sha: string; ref: string; ref_type: string; refspecs: string[] };
  variables: { key: string; value: string; masked: boolean }[];
  steps: { name: string; script: string[] }[];
}

async function nextJob(): Promise<JobResponse> {
  let job: JobResponse | null = null;
  await expect
    .poll(
      async () => {
        const res = await requestJob();
        if (res.status === 201) job = (await res.json()) as JobResponse;
        return res.status;
      },
      { timeout: 20_000, interval: 200 },
    )
    .toBe(201);
  return job!;
}

describe("runner protocol over HTTP", () => {
  it("answers 204 with X-GitLab-Last-Update when there is nothing to do, and 403 to unknown runners", async () => {
    const res = await requestJob();
    expect(res.status).toBe(204);
    expect(res.headers.get("x-gitlab-last-update")).toMatch(/^\d+$/);
    expect((await requestJob("glrt-unknown")).status).toBe(403);
  });

  it("runs a pushed pipeline's jobs: request, trace, update", async () => {
    const commit = await s.api(`/projects/${projectId}/repository/commits`, {
      method: "POST",
      json: { branch: "main", commit_message: "add ci", actions: [{ action: "create", file_path: ".gitlab-ci.yml", content: CI }] },
    });
    expect(commit.status).toBe(201);
    const sha = ((await commit.json()) as { id: string }).id;

    const build = await nextJob();
    expect(build.job_info).toMatchObject({ name: "build", stage: "build", project_id: projectId });
    expect(build.git_info).toMatchObject({ sha, ref: "main", ref_type: "branch", refspecs: ["+refs/heads/main:refs/remotes/origin/main"] });
    expect(build.git_info.repo_url).toBe(`${s.url.replace("://", `://gitlab-ci-token:${build.token}@`)}/root/runner-protocol.git`);
    expect(build.steps[0]).toMatchObject({ name: "script", script: ["echo building"] });
    const vars = Object.fromEntries(build.variables.map((v) => [v.key, v]));
    expect(vars.CI_JOB_TOKEN).toMatchObject({ value: build.token, masked: true });
    expect(vars.CI_PROJECT_PATH!.value).toBe("root/runner-protocol");

    const first = await trace(build.id, build.token, 0, "building\n");
    expect(first.status).toBe(202);
    expect(first.headers.get("range")).toBe("0-9");
    expect(first.headers.get("job-status")).toBe("running");
    const gap = await trace(build.id, build.token, 20, "lost");
    expect(gap.status).toBe(416);
    expect(gap.headers.get("range")).toBe("0-9");
    expect((await trace(build.id, "glcbt-wrong", 9, "x")).status).toBe(403);

    const done = await update(build.id, { token: build.token, state: "success", exit_code: 0 });
    expect(done.status).toBe(200);
    expect(done.headers.get("job-status")).toBe("success");

    const test = await nextJob();
    expect(test.job_info.name).toBe("test");
    const failed = await update(test.id, { token: test.token, state: "failed", failure_reason: "script_failure", exit_code: 1 });
    expect(failed.headers.get("job-status")).toBe("failed");
    expect((await requestJob()).status).toBe(204);
  });

  it("gives a job to exactly one of two runners racing for it", async () => {
    const second = await s.api("/user/runners", { method: "POST", json: { runner_type: "instance_type", description: "racer" } });
    const secondToken = ((await second.json()) as { token: string }).token;
    const created = await s.api(`/projects/${projectId}/pipeline?ref=main`, { method: "POST" });
    expect(created.status).toBe(201);
    // The new pipeline's first stage has one job: both runners ask at the same time.
    const [a, b] = await Promise.all([requestJob(runnerToken), requestJob(secondToken)]);
    expect([a.status, b.status].sort()).toEqual([201, 204]);
    const winner = (await (a.status === 201 ? a : b).json()) as JobResponse;
    expect(winner.job_info.name).toBe("build");
    await update(winner.id, { token: winner.token, state: "success" });
  });

  it("registers runners with the registration token (legacy flow)", async () => {
    const register = (token: string) =>
      fetch(`${s.url}/api/v4/runners`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token, description: "legacy", tag_list: "a,b" }),
      });
    expect((await register("GR1348941-wrong")).status).toBe(403);
    const res = await register(REGISTRATION_TOKEN);
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: number; token: string; token_expires_at: null };
    expect(body).toMatchObject({ token_expires_at: null });
    expect(body.token).toMatch(/^glrt-/);
    const verify = await fetch(`${s.url}/api/v4/runners/verify`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: body.token }),
    });
    expect(verify.status).toBe(200);
  });
});
