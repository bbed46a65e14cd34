// Keeping and deleting job artifacts over HTTP: an artifact uploaded as a runner does, then kept,
// deleted, and a project's artifacts expired, with GitLab's roles and answers.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ciProject, instanceRunner, member, reportJob, requestJobAs } from "./ci-fixture.ts";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let project: Awaited<ReturnType<typeof ciProject>>;
let developer: { id: number; token: string };
let maintainer: { id: number; token: string };
let zip: Buffer;
const work = mkdtempSync(path.join(tmpdir(), "quarry-keep-"));

beforeAll(async () => {
  s = await startTestStack(undefined, { jobRequestWaitMs: 0 });
  project = await ciProject(s, "ci-artifacts");
  developer = await member(s, project.id, 30, () => createUserWithToken(s));
  maintainer = await member(s, project.id, 40, () => createUserWithToken(s));
  writeFileSync(path.join(work, "app.txt"), "built\n");
  execFileSync("zip", ["-q", "a.zip", "app.txt"], { cwd: work });
  zip = readFileSync(path.join(work, "a.zip"));
}, 120_000);
afterAll(async () => {
  await s?.destroy();
  rmSync(work, { recursive: true, force: true });
});

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> });

/**
 * A successful pipeline of main, run as a runner would: `compile` uploads an archive, `rspec`
 * passes (the manual deploy does not hold the pipeline up).
 */
async function successfulPipeline(): Promise<{ compile: number; rspec: number }> {
  await s.gitlab().Pipelines.create(project.id, "main");
  const runnerToken = await instanceRunner(s, ["shell"]);
  const run = async (name: string, upload: boolean) => {
    const job = await requestJobAs(s, runnerToken);
    expect(job.job_info.name).toBe(name);
    if (upload) {
      const form = new FormData();
      form.append("file", new Blob([zip]), "artifacts.zip");
      const uploaded = await fetch(`${s.url}/api/v4/jobs/${job.id}/artifacts?artifact_type=archive&artifact_format=zip`, {
        method: "POST",
        headers: { "JOB-TOKEN": job.token },
        body: form,
      });
      expect(uploaded.status).toBe(201);
    }
    await reportJob(s, job, "success");
    return job.id;
  };
  return { compile: await run("compile", true), rspec: await run("rspec", false) };
}

let keptJobId = 0;

describe("job artifacts: keep and delete", () => {
  it("keeps a job's artifacts for a Developer and answers the job; 404 without an archive", async () => {
    const pipeline = await successfulPipeline();
    keptJobId = pipeline.compile;
    const jobId = keptJobId;
    const before = (await s.gitlab().Jobs.show(project.id, jobId)) as unknown as { artifacts_expire_at: string | null };
    expect(before.artifacts_expire_at).toEqual(expect.any(String));
    const keep = (id: number, token: string) => s.api(`/projects/${project.id}/jobs/${id}/artifacts/keep`, { method: "POST", token });

    expect(await json(await keep(jobId, developer.token))).toMatchObject({
      status: 200,
      body: { id: jobId, name: "compile", artifacts_expire_at: null, artifacts_file: { filename: "artifacts.zip" } },
    });
    const reporter = await member(s, project.id, 20, () => createUserWithToken(s));
    expect(await json(await keep(jobId, reporter.token))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    expect(await json(await keep(pipeline.rspec, developer.token))).toEqual({ status: 404, body: { message: "404 Not Found" } });
  });

  it("downloads artifacts only with a token scoped for API reads (api, read_api)", async () => {
    const jobId = keptJobId;
    const routes = [
      `/projects/${project.id}/jobs/${jobId}/artifacts`,
      `/projects/${project.id}/jobs/${jobId}/artifacts/app.txt`,
      `/projects/${project.id}/jobs/artifacts/main/download?job=compile`,
      `/projects/${project.id}/jobs/artifacts/main/raw/app.txt?job=compile`,
    ];
    for (const scopes of [["read_user"], ["read_repository"], ["write_repository"], ["read_repository", "write_repository", "read_user"]]) {
      const user = await member(s, project.id, 40, () => createUserWithToken(s, scopes));
      for (const route of routes) {
        const res = await s.api(route, { token: user.token });
        expect({ route, scopes, status: res.status, body: await res.json() }).toEqual({
          route,
          scopes,
          status: 403,
          body: {
            error: "insufficient_scope",
            error_description: "The request requires higher privileges than provided by the access token.",
            scope: "api read_api",
          },
        });
      }
    }
    for (const scopes of [["api"], ["read_api"]]) {
      const user = await member(s, project.id, 40, () => createUserWithToken(s, scopes));
      for (const route of routes) expect({ route, status: (await s.api(route, { token: user.token })).status }).toEqual({ route, status: 200 });
    }
  });

  it("deletes a job's artifacts for a Maintainer, keeping its trace", async () => {
    const jobId = (await successfulPipeline()).compile;
    const remove = (token: string) => s.api(`/projects/${project.id}/jobs/${jobId}/artifacts`, { method: "DELETE", token });
    expect(await json(await remove(developer.token))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    expect((await s.api(`/projects/${project.id}/jobs/${jobId}/artifacts`)).status).toBe(200);

    const removed = await remove(maintainer.token);
    expect(removed.status).toBe(204);
    expect(await removed.text()).toBe("");
    expect((await s.api(`/projects/${project.id}/jobs/${jobId}/artifacts`)).status).toBe(404);
    const job = (await s.gitlab().Jobs.show(project.id, jobId)) as unknown as { artifacts: { file_type: string }[] };
    expect(job.artifacts.map((a) => a.file_type)).toEqual(["trace"]);
  });

  it("expires a project's artifacts for a Maintainer with 202, but those of the latest successful pipeline", async () => {
    const latest = await successfulPipeline();
    expect((await s.gitlab().Jobs.show(project.id, latest.compile)).pipeline).toMatchObject({ status: "success" });

    const expire = (token: string | null) => s.api(`/projects/${project.id}/artifacts`, { method: "DELETE", token });
    expect(await json(await expire(developer.token))).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    expect((await expire(null)).status).toBe(401);
    expect((await s.api(`/projects/${project.id}/jobs/${keptJobId}/artifacts`)).status).toBe(200);
    expect(await json(await expire(maintainer.token))).toEqual({ status: 202, body: { message: "202 Accepted" } });
    // Even kept artifacts of older pipelines expire; the cleanup worker removes them later.
    expect((await s.api(`/projects/${project.id}/jobs/${keptJobId}/artifacts`)).status).toBe(404);
    expect((await s.gitlab().Jobs.show(project.id, keptJobId)) as unknown).toMatchObject({ artifacts_expire_at: expect.any(String) });
    expect((await s.api(`/projects/${project.id}/jobs/${latest.compile}/artifacts`)).status).toBe(200);
  });
});
