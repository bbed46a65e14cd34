import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ciProject, member } from "./ci-fixture.ts";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let project: Awaited<ReturnType<typeof ciProject>>;
let pipelineId: number;
let reporter: { id: number; token: string };

beforeAll(async () => {
  s = await startTestStack();
  project = await ciProject(s, "ci-jobs");
  reporter = await member(s, project.id, 20, () => createUserWithToken(s));
  pipelineId = (await s.gitlab().Pipelines.create(project.id, "main")).id;
});
afterAll(() => s?.destroy());

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as unknown });

describe("jobs", () => {
  it("lists the project's jobs newest first with @gitbeaker/rest, in their created and pending states", async () => {
    const jobs = await s.gitlab(reporter.token).Jobs.all(project.id);
    expect(jobs.map((j) => [j.name, j.status])).toEqual([
      ["deploy", "created"],
      ["rspec", "created"],
      ["compile", "pending"],
    ]);
    expect(jobs[2]).toMatchObject({
      stage: "build",
      ref: "main",
      tag: false,
      allow_failure: false,
      tag_list: ["shell"],
      artifacts: [],
      runner: null,
      started_at: null,
      pipeline: { id: pipelineId, project_id: project.id, sha: project.sha, ref: "main", status: "pending" },
      commit: { id: project.sha, title: "Add CI", message: "Add CI" },
      user: { username: "root", name: "Administrator" },
      web_url: `${s.url}/${project.path}/-/jobs/${jobs[2]!.id}`,
      project: { ci_job_token_scope_enabled: false },
    });
    expect(jobs[2]).not.toHaveProperty("artifacts_file");
    expect(jobs[0]).toMatchObject({ allow_failure: true });
  });

  it("filters by scope given once or repeated, and refuses unknown values as GitLab does", async () => {
    const names = async (query: string) => ((await (await s.api(`/projects/${project.id}/jobs?${query}`)).json()) as { name: string }[]).map((j) => j.name);
    expect(await names("scope=pending")).toEqual(["compile"]);
    expect(await names("scope[]=pending&scope[]=created")).toEqual(["deploy", "rspec", "compile"]);
    expect(await names("scope[]=success")).toEqual([]);
    expect(await json(await s.api(`/projects/${project.id}/jobs?scope[]=pending&scope[]=done`))).toEqual({
      status: 400,
      body: { error: "scope does not have a valid value" },
    });
  });

  it("pages by offset without a total, and by keyset with a cursor link", async () => {
    const first = await s.api(`/projects/${project.id}/jobs?per_page=2`);
    expect(first.headers.get("x-next-page")).toBe("2");
    expect(first.headers.get("x-total")).toBeNull();
    const last = await s.api(`/projects/${project.id}/jobs?per_page=2&page=2`);
    expect(((await last.json()) as { name: string }[]).map((j) => j.name)).toEqual(["compile"]);
    expect(last.headers.get("x-next-page")).toBe("");

    const keyset = await s.api(`/projects/${project.id}/jobs?pagination=keyset&per_page=2`);
    expect(((await keyset.json()) as { name: string }[]).map((j) => j.name)).toEqual(["deploy", "rspec"]);
    const next = /<([^>]+)>; rel="next"/.exec(keyset.headers.get("link") ?? "")?.[1];
    expect(next).toContain("cursor=");
    const rest = await fetch(next!, { headers: { "PRIVATE-TOKEN": s.rootToken } });
    expect(((await rest.json()) as { name: string }[]).map((j) => j.name)).toEqual(["compile"]);
    expect(rest.headers.get("link")).toBeNull();
    expect((await s.api(`/projects/${project.id}/jobs?pagination=keyset&order_by=name`)).status).toBe(400);
  });

  it("shows one job, its (still empty) trace as text, and GitLab's 404 for unknown jobs", async () => {
    const [job] = await s.gitlab().Jobs.all(project.id, { scope: ["pending"] } as never);
    expect(await s.gitlab().Jobs.show(project.id, job!.id)).toMatchObject({ id: job!.id, name: "compile", status: "pending" });
    const trace = await s.api(`/projects/${project.id}/jobs/${job!.id}/trace`);
    expect(trace.status).toBe(200);
    expect(trace.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(trace.headers.get("content-disposition")).toBe(`infile; filename="${job!.id}.log"`);
    expect(await trace.text()).toBe("");
    expect(await json(await s.api(`/projects/${project.id}/jobs/999999`))).toEqual({ status: 404, body: { message: "404 Not found" } });
    expect(await json(await s.api(`/projects/${project.id}/jobs/999999/trace`))).toEqual({ status: 404, body: { message: "404 Not found" } });
    expect(await json(await s.api(`/projects/${project.id}/jobs/abc`))).toEqual({ status: 400, body: { error: "job_id does not have a valid value" } });
  });

  it("lists a pipeline's jobs and bridges", async () => {
    const api = s.gitlab();
    expect((await api.Jobs.all(project.id, { pipelineId })).map((j) => j.name)).toEqual(["deploy", "rspec", "compile"]);
    const scoped = await s.api(`/projects/${project.id}/pipelines/${pipelineId}/jobs?scope[]=created&include_retried=true&per_page=1`);
    expect(scoped.headers.get("x-total")).toBe("2");
    expect(((await scoped.json()) as { name: string }[]).map((j) => j.name)).toEqual(["deploy"]);
    expect(await api.Jobs.allPipelineBridges(project.id, pipelineId)).toEqual([]);
    expect(await json(await s.api(`/projects/${project.id}/pipelines/999999/jobs`))).toEqual({ status: 404, body: { message: "404 Not found" } });
    expect(await json(await s.api(`/projects/${project.id}/pipelines/999999/bridges`))).toEqual({ status: 404, body: { message: "404 Not found" } });
  });

  it("needs a signed-in user for /jobs even on public projects, and a Developer for job actions", async () => {
    const open = await ciProject(s, "ci-jobs-open", "public");
    await s.gitlab().Pipelines.create(open.id, "main");
    expect(await json(await s.api(`/projects/${open.id}/jobs`, { token: null }))).toEqual({ status: 401, body: { message: "401 Unauthorized" } });
    const pipelineJobs = await s.api(`/projects/${open.id}/pipelines/${(await s.gitlab().Pipelines.all(open.id))[0]!.id}/jobs`, { token: null });
    expect(pipelineJobs.status).toBe(200);
    const [job] = await s.gitlab().Jobs.all(project.id);
    for (const action of ["cancel", "retry", "erase", "play"]) {
      const res = await s.api(`/projects/${project.id}/jobs/${job!.id}/${action}`, { method: "POST", token: reporter.token });
      expect(await json(res)).toEqual({ status: 403, body: { message: "403 Forbidden" } });
    }
    const badVariables = await s.api(`/projects/${project.id}/jobs/${job!.id}/play`, { method: "POST", json: { job_variables_attributes: [{ key: "A" }] } });
    expect(await json(badVariables)).toEqual({ status: 400, body: { error: "job_variables_attributes does not have a valid value" } });
  });

  it("shows a runner's job running with its runner and trace, and the archived trace once it succeeded", async () => {
    const runner = await s.api("/user/runners", { method: "POST", json: { runner_type: "instance_type", tag_list: ["shell"], description: "box" } });
    const runnerToken = ((await runner.json()) as { token: string }).token;
    const taken = await s.api("/jobs/request", {
      method: "POST",
      json: { token: runnerToken, system_id: "s_000000000001", info: { version: "17.0.0" } },
      token: null,
    });
    expect(taken.status).toBe(201);
    const payload = (await taken.json()) as { id: number; token: string };
    const appended = await s.api(`/jobs/${payload.id}/trace?token=${payload.token}`, {
      method: "PATCH",
      body: "$ make\nok\n",
      headers: { "Content-Range": "0-10" },
      token: null,
    });
    expect(appended.status).toBe(202);

    const running = await s.gitlab().Jobs.show(project.id, payload.id);
    expect(running).toMatchObject({
      name: "compile",
      status: "running",
      runner: { description: "box", is_shared: true, runner_type: "instance_type", active: true, paused: false, ip_address: null },
      runner_manager: { system_id: "s_000000000001", version: "17.0.0" },
    });
    expect(typeof running.duration).toBe("number");
    expect(await (await s.api(`/projects/${project.id}/jobs/${payload.id}/trace`)).text()).toBe("$ make\nok\n");

    const finished = await s.api(`/jobs/${payload.id}`, { method: "PUT", json: { token: payload.token, state: "success" }, token: null });
    expect(finished.status).toBe(200);
    expect(await (await s.api(`/projects/${project.id}/jobs/${payload.id}/trace`)).text()).toBe("$ make\nok\n");
    const done = await s.gitlab().Jobs.show(project.id, payload.id);
    expect(done).toMatchObject({ status: "success", artifacts: [{ file_type: "trace", size: 10, filename: "job.log", file_format: "raw" }] });
    expect((await s.gitlab().Jobs.all(project.id, { scope: ["pending"] } as never)).map((j) => j.name)).toEqual(["rspec"]);
  });
});
