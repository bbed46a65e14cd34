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
