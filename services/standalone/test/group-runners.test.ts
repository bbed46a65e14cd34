// Group runners end to end: a runner registered with a group's registration token through the
// runner protocol (POST /runners, then POST /jobs/request as gitlab-runner) takes the jobs of the
// projects of the group's subgroups, not another group's, and no longer those of a project moved
// out of the group; GET /groups/:id/runners and GET /projects/:id/runners list it, over fetch,
// @gitbeaker/rest and python-gitlab.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack(undefined, { jobRequestWaitMs: 0 });
}, 120_000);
afterAll(() => s?.destroy());

const { post, put } = jsonRequests(() => s);

interface JobResponse {
  id: number;
  token: string;
  job_info: { name: string; project_id: number };
}

const register = async (registrationToken: string, description: string) =>
  (await jsonBody(
    await fetch(`${s.url}/api/v4/runners`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: registrationToken, description }),
    }),
    201,
  )) as { id: number; token: string };

const requestJob = (token: string) =>
  fetch(`${s.url}/api/v4/jobs/request`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      token,
      system_id: "s_0123456789ab",
      info: { name: "gitlab-runner", version: "17.0.0", platform: "linux", architecture: "amd64", executor: "shell" },
    }),
  });

const finish = (job: JobResponse) =>
  fetch(`${s.url}/api/v4/jobs/${job.id}`, {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token: job.token, state: "success", exit_code: 0 }),
  });

/** Commits a one-job CI config; the push creates the pipeline. Waits until its job is pending. */
async function pendingJob(projectId: number, token: string, name: string) {
  const content = `${name}:\n  script: [echo ${name}]\n`;
  await jsonBody(
    await post(
      `/projects/${projectId}/repository/commits`,
      { branch: "main", commit_message: `ci ${name}`, actions: [{ action: "create", file_path: ".gitlab-ci.yml", content }] },
      token,
    ),
    201,
  );
  await expect
    .poll(async () => ((await jsonBody(await s.api(`/projects/${projectId}/jobs?scope=pending`, { token }), 200)) as { name: string }[]).map((j) => j.name), {
      timeout: 20_000,
      interval: 200,
    })
    .toEqual([name]);
}

describe("group runners", () => {
  it("take the jobs of their group's subgroup projects, not another group's, and stop after a transfer out; the lists show them", async () => {
    const tag = `grun${Date.now().toString(36)}`;
    const owner = await createUserWithToken(s);
    const maintainer = await createUserWithToken(s);
    const stranger = await createUserWithToken(s);
    const top = await jsonBody(await post("/groups", { name: tag, path: tag }, owner.token), 201);
    const sub = await jsonBody(await post("/groups", { name: `${tag} sub`, path: `${tag}-sub`, parent_id: top.id }, owner.token), 201);
    const other = await jsonBody(await post("/groups", { name: `${tag} other`, path: `${tag}-other` }, owner.token), 201);
    const target = await jsonBody(await post("/groups", { name: `${tag} target`, path: `${tag}-target` }, owner.token), 201);
    await jsonBody(await post(`/groups/${top.id}/members`, { user_id: maintainer.id, access_level: 40 }, owner.token), 201);
    const project = await jsonBody(await post("/projects", { name: "app", namespace_id: sub.id, initialize_with_readme: true }, owner.token), 201);
    const foreign = await jsonBody(await post("/projects", { name: "lib", namespace_id: other.id, initialize_with_readme: true }, owner.token), 201);

    // Registered through the runner protocol with the top-level group's token.
    const token = (await jsonBody(await s.api(`/groups/${top.id}`, { token: owner.token }), 200)).runners_token as string;
    const runner = await register(token, "group box");

    await pendingJob(foreign.id, owner.token, "foreign");
    expect((await requestJob(runner.token)).status).toBe(204); // another group's job is not its
    await pendingJob(project.id, owner.token, "build");
    const res = await requestJob(runner.token);
    expect(res.status).toBe(201);
    const job = (await res.json()) as JobResponse;
    expect(job.job_info).toMatchObject({ name: "build", project_id: project.id });
    expect((await requestJob(runner.token)).status).toBe(204);
    expect((await finish(job)).status).toBe(200);
    const done = await jsonBody(await s.api(`/projects/${project.id}/jobs/${job.id}`, { token: owner.token }), 200);
    expect(done).toMatchObject({ status: "success", runner: { id: runner.id, runner_type: "group_type", description: "group box" } });

    // GET /groups/:id/runners: the group's runners and its ancestors' (no instance runner exists here).
    const listed = await jsonBody(await s.api(`/groups/${top.id}/runners`, { token: owner.token }), 200);
    expect(listed).toEqual([
      {
        id: runner.id,
        description: "group box",
        ip_address: null,
        active: true,
        paused: false,
        is_shared: false,
        runner_type: "group_type",
        name: null,
        online: true,
        created_at: expect.any(String),
        status: "online",
        job_execution_status: "idle",
      },
    ]);
    const ids = async (path: string, t = owner.token) => ((await jsonBody(await s.api(path, { token: t }), 200)) as { id: number }[]).map((r) => r.id);
    expect(await ids(`/groups/${sub.id}/runners`)).toEqual([runner.id]);
    expect(await ids(`/groups/${other.id}/runners`)).toEqual([]);
    expect(await ids(`/groups/${top.id}/runners?type=project_type`)).toEqual([]);
    expect(await ids(`/groups/${top.id}/runners?status=online`)).toEqual([runner.id]);
    expect(await ids(`/groups/${top.id}/runners?status=offline`)).toEqual([]);
    expect(await jsonBody(await s.api(`/groups/${top.id}/runners?type=nope`, { token: owner.token }), 400)).toEqual({
      error: "type does not have a valid value",
    });
    expect(await jsonBody(await s.api(`/groups/${top.id}/runners?status=nope`, { token: owner.token }), 400)).toEqual({
      error: "status does not have a valid value",
    });
    expect(await jsonBody(await s.api(`/groups/${top.id}/runners`, { token: maintainer.token }), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await s.api(`/groups/${top.id}/runners`, { token: stranger.token }), 404)).toEqual({ message: "404 Group Not Found" });
    expect(await ids(`/groups/${top.id}/runners`, s.rootToken)).toEqual([runner.id]);

    // GET /projects/:id/runners: the runners of the project's ancestor groups too.
    expect(await ids(`/projects/${project.id}/runners`)).toEqual([runner.id]);
    expect(await ids(`/projects/${project.id}/runners?type=group_type`)).toEqual([runner.id]);
    expect(await ids(`/projects/${foreign.id}/runners`)).toEqual([]);

    // @gitbeaker/rest and python-gitlab.
    const viaGitbeaker = await s.gitlab(owner.token).Runners.all({ groupId: sub.id });
    expect(viaGitbeaker.map((r) => [r.id, r.runner_type])).toEqual([[runner.id, "group_type"]]);
    expect(await runPythonScript(s, "group_runners", { token: owner.token, group_id: top.id })).toEqual({
      all: [[runner.id, "group_type", "group box"]],
      group_type: [runner.id],
    });

    // A project moved out of the group: its pending job goes to its new group's runner, not this one.
    await jsonBody(
      await post(
        `/projects/${project.id}/repository/commits`,
        { branch: "main", commit_message: "again", actions: [{ action: "update", file_path: ".gitlab-ci.yml", content: "again:\n  script: [echo again]\n" }] },
        owner.token,
      ),
      201,
    );
    await expect
      .poll(
        async () =>
          ((await jsonBody(await s.api(`/projects/${project.id}/jobs?scope=pending`, { token: owner.token }), 200)) as { name: string }[]).map((j) => j.name),
        {
          timeout: 20_000,
          interval: 200,
        },
      )
      .toEqual(["again"]);
    await jsonBody(await put(`/projects/${project.id}/transfer`, { namespace: target.id }, owner.token), 200);
    expect((await requestJob(runner.token)).status).toBe(204);
    expect(await ids(`/projects/${project.id}/runners`)).toEqual([]);
    const targetToken = (await jsonBody(await s.api(`/groups/${target.id}`, { token: owner.token }), 200)).runners_token as string;
    const newRunner = await register(targetToken, "target box");
    const moved = await requestJob(newRunner.token);
    expect(moved.status).toBe(201);
    expect(((await moved.json()) as JobResponse).job_info).toMatchObject({ name: "again", project_id: project.id });
  });

  it("stop taking the jobs of a subgroup moved out of their group", async () => {
    const tag = `gmov${Date.now().toString(36)}`;
    const owner = await createUserWithToken(s);
    const top = await jsonBody(await post("/groups", { name: tag, path: tag }, owner.token), 201);
    const sub = await jsonBody(await post("/groups", { name: `${tag} sub`, path: `${tag}-sub`, parent_id: top.id }, owner.token), 201);
    const project = await jsonBody(await post("/projects", { name: "svc", namespace_id: sub.id, initialize_with_readme: true }, owner.token), 201);
    const runner = await register((await jsonBody(await s.api(`/groups/${top.id}`, { token: owner.token }), 200)).runners_token, "top box");
    await pendingJob(project.id, owner.token, "moving");
    // The subgroup becomes a top-level group: its projects leave the old group's runners at once.
    await jsonBody(await post(`/groups/${sub.id}/transfer`, {}, owner.token), 201);
    expect((await requestJob(runner.token)).status).toBe(204);
    expect(((await jsonBody(await s.api(`/groups/${sub.id}/runners`, { token: owner.token }), 200)) as unknown[]).length).toBe(0);
    const subRunner = await register((await jsonBody(await s.api(`/groups/${sub.id}`, { token: owner.token }), 200)).runners_token, "sub box");
    const res = await requestJob(subRunner.token);
    expect(res.status).toBe(201);
    expect(((await res.json()) as JobResponse).job_info).toMatchObject({ name: "moving", project_id: project.id });
  });
});
