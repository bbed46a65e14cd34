// Job and pipeline actions over HTTP, with GitLab's status codes and refusals: cancel, retry,
// play and erase a job; cancel and retry a pipeline.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ciProject, instanceRunner, reportJob, requestJobAs } from "./ci-fixture.ts";
import { startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let project: Awaited<ReturnType<typeof ciProject>>;
let runnerToken: string;

beforeAll(async () => {
  s = await startTestStack(undefined, { jobRequestWaitMs: 0 });
  project = await ciProject(s, "ci-actions");
  runnerToken = await instanceRunner(s, ["shell"]);
}, 120_000);
afterAll(() => s?.destroy());

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> });
const post = (path: string, body?: unknown) => s.api(`/projects/${project.id}${path}`, { method: "POST", json: body });
const newPipeline = async () => (await s.gitlab().Pipelines.create(project.id, "main")).id;
const jobsOf = async (pipelineId: number) => {
  const jobs = (await (await s.api(`/projects/${project.id}/pipelines/${pipelineId}/jobs?include_retried=true`)).json()) as {
    id: number;
    name: string;
    status: string;
  }[];
  return jobs.toSorted((a, b) => a.id - b.id);
};
/** Takes the next job as the runner and reports `state`; returns its id. */
async function runNext(state: "success" | "failed", trace = "") {
  const job = await requestJobAs(s, runnerToken);
  if (trace)
    await s.api(`/jobs/${job.id}/trace`, {
      method: "PATCH",
      body: trace,
      headers: { "JOB-TOKEN": job.token, "Content-Range": `0-${trace.length - 1}` },
      token: null,
    });
  await reportJob(s, job, state);
  return job.id;
}

describe("job actions", () => {
  it("cancels, retries and erases jobs, refusing what GitLab refuses", async () => {
    const pipelineId = await newPipeline();
    const failed = await runNext("failed", "boom\n");
    expect(await json(await post(`/jobs/${failed}/retry`))).toMatchObject({ status: 201, body: { name: "compile", status: "pending" } });
    expect(await json(await post(`/jobs/${failed}/retry`))).toEqual({ status: 403, body: { message: "403 Forbidden - Job is not retryable" } });
    const [, , , clone] = await jobsOf(pipelineId);
    expect(await json(await post(`/jobs/${clone!.id}/cancel`))).toMatchObject({ status: 201, body: { id: clone!.id, status: "canceled" } });
    // Canceling it again changes nothing, and is no error.
    expect(await json(await post(`/jobs/${clone!.id}/cancel`))).toMatchObject({ status: 201, body: { status: "canceled" } });

    expect(await json(await post(`/jobs/${clone!.id}/erase`))).toEqual({ status: 403, body: { message: "403 Forbidden - Job is not erasable!" } });
    const erased = await json(await post(`/jobs/${failed}/erase`));
    expect(erased).toMatchObject({ status: 201, body: { id: failed, artifacts: [], erased_at: expect.any(String) } });
    expect(await (await s.api(`/projects/${project.id}/jobs/${failed}/trace`)).text()).toBe("");
  });

  it("plays a manual job with variables, and refuses other jobs with 400", async () => {
    const pipelineId = await newPipeline();
    const [compile, , deploy] = await jobsOf(pipelineId);
    // Still `created` while the build stage runs: not playable yet.
    expect(await json(await post(`/jobs/${deploy!.id}/play`))).toEqual({ status: 400, body: { message: "400 Bad request - Unplayable Job" } });
    await runNext("success");
    await runNext("success");
    expect(await json(await post(`/jobs/${compile!.id}/play`))).toEqual({ status: 400, body: { message: "400 Bad request - Unplayable Job" } });
    const played = await json(await post(`/jobs/${deploy!.id}/play`, { job_variables_attributes: [{ key: "TARGET", value: "prod" }] }));
    expect(played).toMatchObject({ status: 200, body: { id: deploy!.id, name: "deploy", status: "pending" } });
    const job = await requestJobAs(s, runnerToken);
    expect(job.id).toBe(deploy!.id);
    expect(job.variables).toContainEqual(expect.objectContaining({ key: "TARGET", value: "prod" }));
    await reportJob(s, job, "success");
  });
});

describe("pipeline actions", () => {
  it("cancels a pipeline (200) and retries it (201)", async () => {
    const pipelineId = await newPipeline();
    const canceled = await json(await post(`/pipelines/${pipelineId}/cancel`));
    expect(canceled).toMatchObject({ status: 200, body: { id: pipelineId, status: "canceled" } });
    expect((await jobsOf(pipelineId)).map((j) => [j.name, j.status])).toEqual([
      ["compile", "canceled"],
      ["rspec", "canceled"],
      ["deploy", "canceled"],
    ]);
    const retried = await json(await post(`/pipelines/${pipelineId}/retry`));
    expect(retried).toMatchObject({ status: 201, body: { id: pipelineId, status: "running" } });
    expect((await jobsOf(pipelineId)).map((j) => [j.name, j.status])).toEqual([
      ["compile", "canceled"],
      ["rspec", "canceled"],
      ["deploy", "canceled"],
      ["compile", "pending"],
      ["rspec", "created"],
      ["deploy", "created"],
    ]);
  });
});
