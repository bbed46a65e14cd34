// Jobs carry their pipeline's source (GitLab's Ci::Build#source): push for a pushed commit, api
// for POST /projects/:id/pipeline, parent_pipeline for the jobs of a child pipeline.
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";

const CI = `
compile:
  script: make
child:
  trigger:
    include: child.yml
`;
const CHILD = `
child-job:
  script: [echo from the child]
`;

interface Job {
  id: number;
  name: string;
  source: string;
  pipeline: { id: number };
}

let s: TestStack;
let projectId: number;

beforeAll(async () => {
  s = await startTestStack();
  const project = await s.api("/projects", { method: "POST", json: { name: "job-source", initialize_with_readme: true } });
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
});
afterAll(() => s?.destroy());

const get = async <T>(p: string) => {
  const res = await s.api(p);
  if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};
const pipelines = () => get<{ id: number; source: string }[]>(`/projects/${projectId}/pipelines?per_page=100`);

describe("a job's source", () => {
  it("is push for the jobs and bridges of a pushed commit's pipeline, parent_pipeline for its child pipeline's", async () => {
    const push = await waitFor(async () => (await pipelines()).find((p) => p.source === "push"));
    // A child pipeline is listed only when asked for its source.
    const child = await waitFor(async () => (await get<{ id: number }[]>(`/projects/${projectId}/pipelines?source=parent_pipeline`))[0]);
    const jobs = await get<Job[]>(`/projects/${projectId}/pipelines/${push.id}/jobs?per_page=100`);
    expect(jobs.find((j) => j.name === "compile")).toMatchObject({ source: "push", pipeline: { id: push.id } });
    const bridges = await get<Job[]>(`/projects/${projectId}/pipelines/${push.id}/bridges`);
    expect(bridges).toMatchObject([{ name: "child", source: "push", downstream_pipeline: { id: child.id } }]);
    const childJobs = await get<Job[]>(`/projects/${projectId}/pipelines/${child.id}/jobs`);
    expect(childJobs).toMatchObject([{ name: "child-job", source: "parent_pipeline", pipeline: { id: child.id } }]);
    const shown = await get<Job>(`/projects/${projectId}/jobs/${childJobs[0]!.id}`);
    expect(shown.source).toBe("parent_pipeline");
  });

  it("is api for the jobs of a pipeline created with POST /projects/:id/pipeline", async () => {
    const created = await s.api(`/projects/${projectId}/pipeline`, { method: "POST", json: { ref: "main" } });
    expect(created.status).toBe(201);
    const pipeline = (await created.json()) as { id: number; source: string };
    expect(pipeline.source).toBe("api");
    const jobs = await get<Job[]>(`/projects/${projectId}/jobs?per_page=100`);
    expect(jobs.filter((j) => j.pipeline.id === pipeline.id && j.name === "compile")).toMatchObject([{ source: "api" }]);
  });
});
