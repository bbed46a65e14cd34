// Project statistics and the runner registration token end to end: a git push, an upload and a
// job's artifacts show up in `statistics` (refreshed asynchronously from bus events, so the tests
// poll), through @gitbeaker/rest and python-gitlab; `runners_token` for Maintainers registers a
// project runner and is rotated by reset_registration_token.
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { waitFor } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ciProject, instanceRunner, member, reportJob, requestJobAs } from "./ci-fixture.ts";
import { createUserWithToken, jsonBody, jsonRequests, ROOT_TOKEN, startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;
let work: string;
const { post } = jsonRequests(() => s);

interface Statistics {
  commit_count: number;
  storage_size: number;
  repository_size: number;
  wiki_size: number;
  job_artifacts_size: number;
  uploads_size: number;
}

beforeAll(async () => {
  s = await startTestStack(undefined, { jobRequestWaitMs: 0 });
  work = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-stats-"));
}, 60_000);
afterAll(async () => {
  await s?.destroy();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const env = {
  PATH: process.env.PATH,
  HOME: os.tmpdir(),
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_TERMINAL_PROMPT: "0",
  GIT_AUTHOR_NAME: "Dev",
  GIT_AUTHOR_EMAIL: "dev@example.com",
  GIT_COMMITTER_NAME: "Dev",
  GIT_COMMITTER_EMAIL: "dev@example.com",
};
const gitSync = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env, encoding: "utf8" }).trim();
/** git over HTTP runs asynchronously: the stack serves from this process. */
const gitAsync = (cwd: string, ...args: string[]) =>
  new Promise<void>((resolve, reject) =>
    execFile("git", args, { cwd, env }, (err, _stdout, stderr) => (err ? reject(new Error(`git ${args.join(" ")}: ${stderr}`)) : resolve())),
  );

/** The project's statistics as gitbeaker reads them, once `ready` holds (they are refreshed asynchronously). */
const statisticsWhen = (id: number, ready: (st: Statistics) => boolean) =>
  waitFor(
    async () => {
      const project = (await s.gitlab().Projects.show(id, { statistics: true })) as unknown as { statistics: Statistics };
      return ready(project.statistics) ? project.statistics : null;
    },
    { timeoutMs: 20_000 },
  );

describe("project statistics", () => {
  it("measure a git push (repository_size, the default branch's commit_count) and wiki writes, also through python-gitlab", async () => {
    const project = await jsonBody(await post("/projects", { name: "measured" }), 201);
    expect(project).toMatchObject({ issues_enabled: true, merge_requests_enabled: true });
    const before = await jsonBody(await s.api(`/projects/${project.id}?statistics=true`), 200);
    expect(before.statistics).toMatchObject({ commit_count: 0, repository_size: 0, storage_size: 0 });

    const dir = path.join(work, "measured");
    fs.mkdirSync(dir);
    gitSync(dir, "init", "-q", "-b", "main");
    for (const n of [1, 2, 3]) {
      fs.writeFileSync(path.join(dir, `f${n}.txt`), `file ${n}\n`.repeat(100));
      gitSync(dir, "add", ".");
      gitSync(dir, "commit", "-q", "-m", `commit ${n}`);
    }
    gitSync(dir, "checkout", "-q", "-b", "side");
    fs.writeFileSync(path.join(dir, "side.txt"), "side\n");
    gitSync(dir, "add", ".");
    gitSync(dir, "commit", "-q", "-m", "side commit");
    const remote = new URL(`${s.url}/${project.path_with_namespace}.git`);
    remote.username = "root";
    remote.password = ROOT_TOKEN;
    await gitAsync(dir, "push", "-q", remote.toString(), "main", "side");

    // The side branch's commit is not counted: GitLab counts the default branch.
    const st = await statisticsWhen(project.id, (x) => x.commit_count === 3);
    expect(st.repository_size).toBeGreaterThan(0);
    expect(st.storage_size).toBe(st.repository_size + st.wiki_size + st.job_artifacts_size + st.uploads_size);

    // A wiki write measures the wiki repository too.
    await jsonBody(await post(`/projects/${project.id}/wikis`, { title: "Home", content: "# Welcome\n".repeat(50) }), 201);
    const withWiki = await statisticsWhen(project.id, (x) => x.wiki_size > 0);
    expect(withWiki.commit_count).toBe(3);
    expect(withWiki.storage_size).toBe(withWiki.repository_size + withWiki.wiki_size);

    const py = (await runPythonScript(s, "project_statistics", { project_id: project.id })) as {
      statistics: Statistics;
      plain_has_statistics: boolean;
      runners_token: string | null;
    };
    expect(py.statistics).toMatchObject({ commit_count: 3, repository_size: st.repository_size });
    expect(py.plain_has_statistics).toBe(false);
    expect(py.runners_token).toMatch(/^GR1348941/);
  });

  it("count uploads in uploads_size and hide statistics from Guests", async () => {
    const project = await jsonBody(await post("/projects", { name: "uploaded" }), 201);
    const form = new FormData();
    form.append("file", new Blob([Buffer.alloc(1234, 1)]), "data.bin");
    await jsonBody(await s.api(`/projects/${project.id}/uploads`, { method: "POST", body: form }), 201);
    const st = await statisticsWhen(project.id, (x) => x.uploads_size > 0);
    expect(st).toMatchObject({ uploads_size: 1234, storage_size: 1234 });
    const guest = await member(s, project.id, 10, () => createUserWithToken(s));
    expect(await jsonBody(await s.api(`/projects/${project.id}?statistics=true`, { token: guest.token }), 200)).not.toHaveProperty("statistics");
  });

  it("count a job's uploaded artifacts in job_artifacts_size", async () => {
    const project = await ciProject(s, "artifacts-measured");
    await s.gitlab().Pipelines.create(project.id, "main");
    const job = await requestJobAs(s, await instanceRunner(s, ["shell"]));
    const zip = Buffer.from("PK\u0005\u0006".padEnd(22, "\0"), "binary");
    const form = new FormData();
    form.append("file", new Blob([zip]), "artifacts.zip");
    const uploaded = await fetch(`${s.url}/api/v4/jobs/${job.id}/artifacts?artifact_type=archive&artifact_format=zip`, {
      method: "POST",
      headers: { "JOB-TOKEN": job.token },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    await reportJob(s, job, "success");
    const st = await statisticsWhen(project.id, (x) => x.job_artifacts_size > zip.length);
    // The repository (README and CI commits) is measured too.
    const all = await statisticsWhen(project.id, (x) => x.commit_count === 2);
    expect(all.storage_size).toBe(all.repository_size + all.wiki_size + all.job_artifacts_size + all.uploads_size);
    // Deleting the job's artifacts (all but its trace) shrinks the total.
    expect((await s.api(`/projects/${project.id}/jobs/${job.id}/artifacts`, { method: "DELETE" })).status).toBe(204);
    await statisticsWhen(project.id, (x) => x.job_artifacts_size < st.job_artifacts_size);
  });
});

describe("runners_token", () => {
  it("is shown to Maintainers and administrators only, in GET /projects/:id and star responses, never in lists", async () => {
    const project = await jsonBody(await post("/projects", { name: "runner-home" }), 201);
    expect(project.runners_token).toMatch(/^GR1348941[A-Za-z0-9_-]{20}$/);
    const maintainer = await member(s, project.id, 40, () => createUserWithToken(s));
    const developer = await member(s, project.id, 30, () => createUserWithToken(s));
    const shown = await s.gitlab(maintainer.token).Projects.show(project.id);
    expect(shown.runners_token).toBe(project.runners_token);
    expect(await s.gitlab(developer.token).Projects.show(project.id)).not.toHaveProperty("runners_token");
    expect((await jsonBody(await post(`/projects/${project.id}/star`, {}, maintainer.token), 201)).runners_token).toBe(project.runners_token);
    expect(await jsonBody(await post(`/projects/${project.id}/star`, {}, developer.token), 201)).not.toHaveProperty("runners_token");
    const listed = await jsonBody(await s.api(`/projects?search=runner-home`, { token: maintainer.token }), 200);
    expect(listed[0]).not.toHaveProperty("runners_token");
  });

  it("registers a project runner (legacy POST /runners) listed in /projects/:id/runners; reset rotates it", async () => {
    const project = await jsonBody(await post("/projects", { name: "runner-owner" }), 201);
    const maintainer = await member(s, project.id, 40, () => createUserWithToken(s));
    const developer = await member(s, project.id, 30, () => createUserWithToken(s));
    const token = (await jsonBody(await s.api(`/projects/${project.id}`, { token: maintainer.token }), 200)).runners_token as string;

    // As gitlab-runner registers: no user token, the registration token in the body.
    const register = (registrationToken: string) =>
      fetch(`${s.url}/api/v4/runners`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token: registrationToken, description: "project box", tag_list: "docker,linux", run_untagged: "false", locked: "true" }),
      });
    const registered = await jsonBody(await register(token), 201);
    expect(registered).toMatchObject({ id: expect.any(Number), token: expect.stringMatching(/^glrt-/), token_expires_at: null });

    const runners = await jsonBody(await s.api(`/projects/${project.id}/runners?type=project_type`, { token: maintainer.token }), 200);
    expect(runners).toEqual([
      expect.objectContaining({
        id: registered.id,
        description: "project box",
        runner_type: "project_type",
        is_shared: false,
        active: true,
        paused: false,
        online: false,
        status: "never_contacted",
      }),
    ]);
    expect(await jsonBody(await s.api(`/projects/${project.id}/runners`, { token: developer.token }), 403)).toEqual({ message: "403 Forbidden" });

    expect(await jsonBody(await post(`/projects/${project.id}/runners/reset_registration_token`, {}, developer.token), 403)).toEqual({
      message: "403 Forbidden",
    });
    const reset = await jsonBody(await post(`/projects/${project.id}/runners/reset_registration_token`, {}, maintainer.token), 201);
    expect(reset).toEqual({ token: expect.stringMatching(/^GR1348941/), token_expires_at: null });
    expect(reset.token).not.toBe(token);
    expect(await jsonBody(await register(token), 403)).toEqual({ message: "403 Forbidden" });
    await jsonBody(await register(reset.token), 201);
    expect((await jsonBody(await s.api(`/projects/${project.id}`, { token: maintainer.token }), 200)).runners_token).toBe(reset.token);
    expect(await jsonBody(await post(`/projects/999999/runners/reset_registration_token`, {}, maintainer.token), 404)).toEqual({
      message: "404 Project Not Found",
    });
  });
});

describe("with_issues_enabled / with_merge_requests_enabled", () => {
  it("keep every project (both features are on in all of them)", async () => {
    const project = await jsonBody(await post("/projects", { name: "featured" }), 201);
    await jsonBody(await post(`/projects/${project.id}/star`, {}), 201);
    const me = await jsonBody(await s.api("/user"), 200);
    for (const filter of ["with_issues_enabled=true", "with_merge_requests_enabled=true", "with_issues_enabled=false"]) {
      const starred = await jsonBody(await s.api(`/users/${me.id}/starred_projects?${filter}`), 200);
      expect(starred.map((p: { id: number }) => p.id)).toContain(project.id);
      const all = await jsonBody(await s.api(`/projects?search=featured&${filter}`), 200);
      expect(all.map((p: { id: number }) => p.id)).toEqual([project.id]);
    }
    expect((await s.api("/projects?with_issues_enabled=maybe")).status).toBe(400);
  });
});
