// A real pipeline end to end: a pushed .gitlab-ci.yml, the built-in runner cloning over git
// HTTP with its job token, running bash, streaming traces and uploading artifacts; then the
// public API over what it did, artifacts and job-token rules included.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

const CI = `
stages: [build, test, deploy]
build:
  stage: build
  script:
    - mkdir -p dist
    - echo "built $CI_COMMIT_SHORT_SHA" > dist/app.txt
    - 'echo "Coverage: 87.5%"'
  coverage: '/Coverage: \\d+\\.\\d+%/'
  artifacts:
    paths: [dist/]
    expire_in: 1 week
test:
  stage: test
  script:
    - cat dist/app.txt
    - test "$(git rev-parse HEAD)" = "$CI_COMMIT_SHA"
flaky:
  stage: test
  script: [echo trying, exit 3]
  allow_failure: true
deploy:
  stage: deploy
  script: [echo deploying]
  when: manual
child:
  stage: deploy
  trigger:
    include: child.yml
`;
const CHILD = `
child-job:
  script: [echo from the child]
  artifacts:
    paths: [child.txt]
  before_script: [echo child > child.txt]
`;

interface Job {
  id: number;
  name: string;
  status: string;
  stage: string;
  allow_failure: boolean;
  failure_reason?: string;
  coverage: number | null;
  artifacts: { file_type: string; filename: string; size: number; file_format: string }[];
  artifacts_file?: { filename: string; size: number };
  pipeline: { id: number };
}

let s: TestStack;
let projectId: number;
let pipelineId: number;

beforeAll(async () => {
  s = await startTestStack(undefined, { runner: true, runnerPollIntervalMs: 200, jobRequestWaitMs: 2_000 });
  const project = await s.api("/projects", { method: "POST", json: { name: "e2e", initialize_with_readme: true } });
  projectId = ((await project.json()) as { id: number }).id;
  const commit = await s.api(`/projects/${projectId}/repository/commits`, {
    method: "POST",
    json: {
      branch: "main",
      commit_message: "add ci",
      actions: [
        { action: "create", file_path: ".gitlab-ci.yml", content: CI },
        { action: "create", file_path: "child.yml", content: CHILD },
      ],
    },
  });
  expect(commit.status).toBe(201);
}, 120_000);
afterAll(() => s?.destroy());

const json = async <T>(p: string, token?: string | null) => {
  const res = await s.api(p, { token });
  if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};
const pipelineJobs = (id: number) => json<Job[]>(`/projects/${projectId}/pipelines/${id}/jobs?per_page=100`);

describe("a pipeline run by the built-in runner", () => {
  it("runs the push pipeline to success: artifacts passed on, allowed failure, manual job waiting, child pipeline run", async () => {
    await expect
      .poll(async () => (await json<{ id: number; status: string }[]>(`/projects/${projectId}/pipelines`)).at(0)?.status, { timeout: 90_000, interval: 500 })
      .toMatch(/^(success|failed|canceled)$/);
    const [pipeline] = await json<{ id: number; status: string }[]>(`/projects/${projectId}/pipelines`);
    pipelineId = pipeline!.id;
    const jobs = await pipelineJobs(pipelineId);
    const traces = await Promise.all(
      jobs.map(async (j) => `${j.name} ${j.status}: ${await (await s.api(`/projects/${projectId}/jobs/${j.id}/trace`)).text()}`),
    );
    expect(pipeline!.status, traces.join("\n")).toBe("success");
    const byName = Object.fromEntries(jobs.map((j) => [j.name, j]));
    expect(byName.build).toMatchObject({ status: "success", coverage: 87.5 });
    expect(byName.test).toMatchObject({ status: "success" });
    expect(byName.flaky).toMatchObject({ status: "failed", allow_failure: true, failure_reason: "script_failure" });
    expect(byName.deploy).toMatchObject({ status: "manual" });
    // The child pipeline's job is listed with the parent's; without `strategy: depend` the
    // parent does not wait for it.
    await expect
      .poll(async () => (await pipelineJobs(pipelineId)).find((j) => j.name === "child-job")?.status, { timeout: 60_000, interval: 300 })
      .toBe("success");
    expect(byName.build!.artifacts.map((a) => a.file_type).sort()).toEqual(["archive", "metadata", "trace"]);
    expect(byName.build!.artifacts_file).toMatchObject({ filename: "artifacts.zip" });
    const bridges = await json<{ name: string; status: string; downstream_pipeline: { id: number } }[]>(
      `/projects/${projectId}/pipelines/${pipelineId}/bridges`,
    );
    expect(bridges).toMatchObject([{ name: "child", status: "success" }]);
  }, 120_000);

  it("keeps each job's trace", async () => {
    const jobs = await pipelineJobs(pipelineId);
    const test = jobs.find((j) => j.name === "test")!;
    const trace = await (await s.api(`/projects/${projectId}/jobs/${test.id}/trace`)).text();
    expect(trace).toContain("$ cat dist/app.txt");
    expect(trace).toContain("built ");
    const flaky = jobs.find((j) => j.name === "flaky")!;
    expect(await (await s.api(`/projects/${projectId}/jobs/${flaky.id}/trace`)).text()).toContain("trying");
  });

  it("serves artifacts: whole archive, one file, raw by ref, and the parent's job first", async () => {
    const build = (await pipelineJobs(pipelineId)).find((j) => j.name === "build")!;
    const whole = await s.api(`/projects/${projectId}/jobs/${build.id}/artifacts`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("application/zip");
    const dir = mkdtempSync(path.join(tmpdir(), "quarry-e2e-"));
    writeFileSync(path.join(dir, "a.zip"), Buffer.from(await whole.arrayBuffer()));
    expect(execFileSync("unzip", ["-p", path.join(dir, "a.zip"), "dist/app.txt"], { encoding: "utf8" })).toMatch(/^built [0-9a-f]{8}\n$/);
    rmSync(dir, { recursive: true, force: true });

    const one = await s.api(`/projects/${projectId}/jobs/${build.id}/artifacts/dist/app.txt`);
    expect(one.status).toBe(200);
    expect(await one.text()).toMatch(/^built /);
    const raw = await s.api(`/projects/${projectId}/jobs/artifacts/main/raw/dist/app.txt?job=build`);
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-type")).toMatch(/^text\/plain/);
    const byRef = await s.api(`/projects/${projectId}/jobs/artifacts/main/download?job=child-job`);
    expect(byRef.status).toBe(200);
    expect((await s.api(`/projects/${projectId}/jobs/artifacts/main/download?job=nope`)).status).toBe(404);
    expect((await s.api(`/projects/${projectId}/jobs/${build.id}/artifacts/missing.txt`)).status).toBe(404);
  });

  it("plays the manual job", async () => {
    const deploy = (await pipelineJobs(pipelineId)).find((j) => j.name === "deploy")!;
    const played = await s.api(`/projects/${projectId}/jobs/${deploy.id}/play`, { method: "POST" });
    expect(played.status).toBe(200);
    await expect.poll(async () => (await json<Job>(`/projects/${projectId}/jobs/${deploy.id}`)).status, { timeout: 60_000, interval: 500 }).toBe("success");
  }, 90_000);

  it("lets another project's job reach these artifacts and this repository only once the allowlist admits it", async () => {
    const consumer = await s.api("/projects", { method: "POST", json: { name: "consumer", initialize_with_readme: true } });
    const consumerId = ((await consumer.json()) as { id: number }).id;
    const script = [
      `- 'code=$(curl -s -o /dev/null -w "%{http_code}" --header "JOB-TOKEN: $CI_JOB_TOKEN" "$CI_API_V4_URL/projects/${projectId}/jobs/artifacts/main/download?job=build"); echo "artifacts=$code"'`,
      `- 'if git ls-remote "$(echo "$CI_REPOSITORY_URL" | sed "s#/root/consumer.git#/root/e2e.git#")" >/dev/null 2>&1; then echo clone=ok; else echo clone=refused; fi'`,
    ].join("\n    ");
    await s.api(`/projects/${consumerId}/repository/commits`, {
      method: "POST",
      json: {
        branch: "main",
        commit_message: "ci",
        actions: [{ action: "create", file_path: ".gitlab-ci.yml", content: `fetch:\n  script:\n    ${script}\n` }],
      },
    });
    const runFetch = async (pipelineId?: number) => {
      let id = pipelineId;
      if (id === undefined) {
        await expect.poll(async () => (await json<{ id: number }[]>(`/projects/${consumerId}/pipelines`)).length, { timeout: 30_000, interval: 300 }).toBe(1);
        id = (await json<{ id: number }[]>(`/projects/${consumerId}/pipelines`))[0]!.id;
      }
      await expect
        .poll(async () => (await json<{ status: string }>(`/projects/${consumerId}/pipelines/${id}`)).status, { timeout: 60_000, interval: 300 })
        .toBe("success");
      const [job] = await json<Job[]>(`/projects/${consumerId}/pipelines/${id}/jobs`);
      return (await s.api(`/projects/${consumerId}/jobs/${job!.id}/trace`)).text();
    };
    const denied = await runFetch();
    expect(denied).toContain("artifacts=404");
    expect(denied).toContain("clone=refused");

    const allow = await s.api(`/projects/${projectId}/job_token_scope/allowlist`, { method: "POST", json: { target_project_id: consumerId } });
    expect(allow.status).toBe(201);
    const again = await s.api(`/projects/${consumerId}/pipeline?ref=main`, { method: "POST" });
    expect(again.status).toBe(201);
    const allowed = await runFetch(((await again.json()) as { id: number }).id);
    expect(allowed).toContain("artifacts=200");
    expect(allowed).toContain("clone=ok");
  }, 150_000);

  it("hides private artifacts from outsiders and refuses job tokens outside a running job", async () => {
    const outsider = await createUserWithToken(s);
    const build = (await pipelineJobs(pipelineId)).find((j) => j.name === "build")!;
    expect((await s.api(`/projects/${projectId}/jobs/${build.id}/artifacts`, { token: outsider.token })).status).toBe(404);
    const res = await s.api(`/projects/${projectId}/jobs/${build.id}/artifacts`, { token: null, headers: { "JOB-TOKEN": "glcbt-not-running" } });
    expect(res.status).toBe(401);
  });
});
