// A project with a .gitlab-ci.yml whose pipelines only the API creates (pushes are filtered out by
// workflow rules, so nothing appears behind a test's back): compile (build stage, pending once the
// pipeline is created), rspec and a manual deploy (test stage, created).
import type { TestStack } from "./helpers.ts";

export const CI_YAML = `workflow:
  rules:
    - if: $CI_PIPELINE_SOURCE == "push"
      when: never
    - when: always
stages: [build, test]
compile:
  stage: build
  tags: [shell]
  script: make
rspec:
  stage: test
  script: rspec
deploy:
  stage: test
  script: deploy
  when: manual
`;

export async function ciProject(s: TestStack, name: string, visibility: "private" | "public" = "private") {
  const api = s.gitlab();
  const project = await api.Projects.create({ name, initializeWithReadme: true, visibility });
  const commit = await api.Commits.create(project.id, "main", "Add CI", [{ action: "create", filePath: ".gitlab-ci.yml", content: CI_YAML }]);
  return { id: project.id, path: project.path_with_namespace, sha: commit.id };
}

/** Adds a member with `level` and returns their token. */
export async function member(s: TestStack, projectId: number, level: number, createUser: () => Promise<{ id: number; token: string }>) {
  const user = await createUser();
  const res = await s.api(`/projects/${projectId}/members`, { method: "POST", json: { user_id: user.id, access_level: level } });
  if (res.status !== 201) throw new Error(`member: ${res.status} ${await res.text()}`);
  return user;
}

/** A new instance runner's token. */
export async function instanceRunner(s: TestStack, tagList: string[] = []): Promise<string> {
  const res = await s.api("/user/runners", { method: "POST", json: { runner_type: "instance_type", tag_list: tagList } });
  if (res.status !== 201) throw new Error(`runner: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

export interface RunnerJob {
  id: number;
  token: string;
  job_info: { name: string };
  variables: { key: string; value: string }[];
}

/** The next job for a runner, as it asks for one over HTTP; fails when there is none. */
export async function requestJobAs(s: TestStack, runnerToken: string): Promise<RunnerJob> {
  const res = await s.api("/jobs/request", { method: "POST", json: { token: runnerToken, system_id: "s_000000000001" }, token: null });
  if (res.status !== 201) throw new Error(`no job: ${res.status}`);
  return (await res.json()) as RunnerJob;
}

/** A runner's final update of its job. */
export async function reportJob(s: TestStack, job: RunnerJob, state: "success" | "failed"): Promise<void> {
  const res = await s.api(`/jobs/${job.id}`, {
    method: "PUT",
    json: { token: job.token, state, failure_reason: state === "failed" ? "script_failure" : undefined },
    token: null,
  });
  if (res.status !== 200) throw new Error(`update: ${res.status} ${await res.text()}`);
}
