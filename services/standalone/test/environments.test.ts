// Environments and deployments end to end: a pushed .gitlab-ci.yml with `environment:` creates the
// environments and one deployment per deploying job; a runner (speaking the runner API) runs them,
// the deployments follow the jobs, and a stop job stops its environment. GitLab's list filters,
// entities and 400/404 answers on /environments and /deployments.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { instanceRunner, reportJob, requestJobAs, type RunnerJob } from "./ci-fixture.ts";
import { jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";

const CI = `
stages: [deploy, cleanup]
deploy:
  stage: deploy
  script: deploy
  environment:
    name: production
    url: https://prod.example.com
review:
  stage: deploy
  script: review
  environment: review/$CI_COMMIT_REF_SLUG
stop-review:
  stage: cleanup
  script: stop
  when: manual
  environment: { name: review/$CI_COMMIT_REF_SLUG, action: stop }
`;

let s: TestStack;
let projectId: number;
let path: string;
let sha: string;
let runnerToken: string;
const { post: postJson } = jsonRequests(() => s);
const get = (p: string) => s.api(p);
const post = (p: string) => postJson(p, {});

beforeAll(async () => {
  s = await startTestStack();
  const api = s.gitlab();
  const project = await api.Projects.create({ name: "deployed", initializeWithReadme: true });
  projectId = project.id;
  path = String(project.path_with_namespace);
  sha = (await api.Commits.create(projectId, "main", "Add CI", [{ action: "create", filePath: ".gitlab-ci.yml", content: CI }])).id;
  runnerToken = await instanceRunner(s);
}, 120_000);
afterAll(() => s?.destroy());

interface Environment {
  id: number;
  name: string;
  slug: string;
  external_url: string | null;
  state: string;
  tier: string;
  last_deployment?: { status: string; deployable: { name: string } } | null;
}
interface Deployment {
  id: number;
  iid: number;
  ref: string;
  sha: string;
  status: string;
  user: { username: string };
  environment: { name: string };
  deployable: { id: number; name: string; status: string; pipeline: { id: number } };
}

const environments = async (query = "") => (await jsonBody(await get(`/projects/${projectId}/environments${query}`), 200)) as Environment[];
const deployments = async (query = "") => (await jsonBody(await get(`/projects/${projectId}/deployments${query}`), 200)) as Deployment[];

/** Runs the next pending job to `state` through the runner API. */
async function runNext(state: "success" | "failed"): Promise<RunnerJob> {
  const job = await requestJobAs(s, runnerToken);
  await reportJob(s, job, state);
  return job;
}

describe("environments and deployments", () => {
  it("creates the environments the pipeline's jobs name, with GitLab's entity", async () => {
    await expect.poll(async () => (await environments()).length, { timeout: 30_000 }).toBe(2);
    const [production, review] = await environments();
    expect(production).toMatchObject({
      name: "production",
      slug: "production",
      external_url: "https://prod.example.com",
      tier: "production",
      state: "available",
      auto_stop_at: null,
      project: { id: projectId, path_with_namespace: path },
    });
    expect(Object.keys(production!)).not.toContain("last_deployment");
    expect(review).toMatchObject({ name: "review/main", slug: expect.stringMatching(/^review-main-[a-z0-9]{6}$/), external_url: null, tier: "development" });
    expect((await environments("?name=production")).map((e) => e.name)).toEqual(["production"]);
    expect((await environments("?search=REVIEW")).map((e) => e.name)).toEqual(["review/main"]);
    expect(await environments("?states=stopped")).toEqual([]);
  });

  it("refuses bad filters as GitLab does", async () => {
    expect(await jsonBody(await get(`/projects/${projectId}/environments?search=re`), 400)).toEqual({
      message: "400 Bad request - Search query is less than 3 characters",
    });
    expect(await jsonBody(await get(`/projects/${projectId}/environments?name=a&search=abc`), 400)).toEqual({ error: "name, search cannot be used together" });
    expect(await jsonBody(await get(`/projects/${projectId}/environments?states=gone`), 400)).toEqual({ error: "states does not have a valid value" });
    expect(await jsonBody(await get(`/projects/${projectId}/deployments?status=done`), 400)).toEqual({ error: "status does not have a valid value" });
    expect(await jsonBody(await get(`/projects/${projectId}/environments/999999`), 404)).toEqual({ message: "404 Not found" });
    expect(await jsonBody(await get(`/projects/${projectId}/deployments/999999`), 404)).toEqual({ message: "404 Not found" });
    // DeploymentsFinder's InefficientQueryError.
    const refused = async (query: string) => (await jsonBody(await get(`/projects/${projectId}/deployments?${query}`), 400)).message;
    const at = "2000-01-01T00:00:00Z";
    expect(await refused(`finished_after=${at}&status=success`)).toBe("400 Bad request - `finished_at` filter and `finished_at` sorting must be paired");
    expect(await refused("order_by=finished_at")).toBe("400 Bad request - `finished_at` filter and `finished_at` sorting must be paired");
    expect(await refused(`finished_after=${at}&order_by=finished_at`)).toBe(
      "400 Bad request - `finished_at` filter must be combined with `success` status filter.",
    );
    expect(await refused(`finished_after=${at}&updated_after=${at}&order_by=finished_at&status=success`)).toBe(
      "400 Bad request - Both `updated_at` filter and `finished_at` filter can not be specified",
    );
    // Both APIs authenticate first, public project or not.
    expect(await jsonBody(await s.api(`/projects/${projectId}/environments`, { token: null }), 401)).toEqual({ message: "401 Unauthorized" });
    expect(await jsonBody(await s.api(`/projects/${projectId}/deployments`, { token: null }), 401)).toEqual({ message: "401 Unauthorized" });
  });

  it("deploys: one deployment per starting job, its status following the job's", async () => {
    const created = await deployments();
    expect(created.map((d) => [d.iid, d.environment.name, d.status, d.ref, d.sha])).toEqual([
      [1, "production", "created", "main", sha],
      [2, "review/main", "created", "main", sha],
    ]);
    expect(created[0]).toMatchObject({ user: { username: "root" }, deployable: { name: "deploy", status: "pending" } });

    const first = await runNext("success");
    const second = await runNext("failed");
    const byJob = new Map([first, second].map((j) => [j.job_info.name, j]));
    const done = await deployments("?order_by=iid&sort=desc");
    expect(done.map((d) => [d.environment.name, d.status])).toEqual([
      ["review/main", byJob.get("review") === second ? "failed" : "success"],
      ["production", byJob.get("deploy") === second ? "failed" : "success"],
    ]);
    expect((await deployments("?status=success")).length).toBe(1);
    expect((await deployments("?environment=production")).map((d) => d.environment.name)).toEqual(["production"]);
    const finished = "&status=success&order_by=finished_at";
    expect(await deployments(`?finished_before=2000-01-01T00:00:00Z${finished}`)).toEqual([]);
    expect((await deployments(`?finished_after=2000-01-01T00:00:00Z${finished}`)).length).toBe(1);
    const one = await jsonBody(await get(`/projects/${projectId}/deployments/${done[0]!.id}`), 200);
    expect(one).toMatchObject({ id: done[0]!.id, deployable: { pipeline: { id: done[0]!.deployable.pipeline.id } } });
  });

  it("shows an environment's last successful deployment, and a stop job stops it", async () => {
    // Make the review deployment succeed (retrying it if it was the failed one), so both have one.
    const [, reviewDeployment] = await deployments();
    if (reviewDeployment!.status !== "success") {
      await jsonBody(await post(`/projects/${projectId}/jobs/${reviewDeployment!.deployable.id}/retry`), 201);
      await runNext("success");
    }
    const review = (await environments("?name=review/main"))[0]!;
    const shown = (await jsonBody(await get(`/projects/${projectId}/environments/${review.id}`), 200)) as Environment;
    expect(shown).toMatchObject({ name: "review/main", state: "available", last_deployment: { status: "success", deployable: { name: "review" } } });
    // As GitLab presents the single environment: no project, and no environment in its last deployment.
    expect(Object.keys(shown)).not.toContain("project");
    expect(Object.keys(shown.last_deployment!)).not.toContain("environment");

    const stop = (await jsonBody(await get(`/projects/${projectId}/jobs?scope=manual`), 200)) as { id: number; name: string }[];
    expect(stop.map((j) => j.name)).toEqual(["stop-review"]);
    await jsonBody(await post(`/projects/${projectId}/jobs/${stop[0]!.id}/play`), 200);
    const job = await runNext("success");
    expect(job.variables.find((v) => v.key === "CI_ENVIRONMENT_ACTION")?.value).toBe("stop");
    expect((await environments("?states=stopped")).map((e) => e.name)).toEqual(["review/main"]);
    expect((await environments("?states=available")).map((e) => e.name)).toEqual(["production"]);
  });
});
