import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpErrorFromGrpc } from "@quarry/grpc";
import type { CreatePipelineRequest__Output } from "@quarry/proto/types/ci/v1/CreatePipelineRequest";
import { setUp, type TestContext } from "../../test/support.ts";
import type { ProjectFacts } from "../deps.ts";
import { createPipelineRpc } from "./create-pipeline.ts";

const CONFIG = `
stages: [build, test]
build:
  stage: build
  script: echo build
test:
  stage: test
  script: echo test
deploy:
  stage: test
  script: echo deploy
  rules:
    - if: $DEPLOY == "yes"
`;

let t: TestContext;
let project: ProjectFacts;

beforeAll(async () => {
  t = await setUp("ci_create_pipeline", { repo: true });
  ({ project } = await t.addProject(1, { ".gitlab-ci.yml": CONFIG, "README.md": "hi" }));
}, 60_000);
afterAll(() => t.close());

const request = (ref: string, extra: Partial<CreatePipelineRequest__Output> = {}): CreatePipelineRequest__Output => ({
  project: { ...project, id: project.id, pathWithNamespace: project.pathWithNamespace, defaultBranch: project.defaultBranch },
  ref,
  variables: [],
  userId: 7,
  source: "",
  refProtected: true,
  ...extra,
});
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: unknown) => httpErrorFromGrpc(err),
  );
const jobsOf = (pipelineId: number) => t.deps.prisma.job.findMany({ where: { pipelineId }, orderBy: { id: "asc" } });

describe("CreatePipeline", () => {
  it("stores the pipeline and its jobs, and enqueues the first stage", async () => {
    const p = await createPipelineRpc(t.deps)(request("main"));
    expect(p).toMatchObject({ iid: 1, ref: "main", tag: false, source: "api", status: "pending", userId: 7, projectPath: "group/project-1" });
    const jobs = await jobsOf(Number(p.id));
    expect(jobs.map((j) => [j.name, j.stage, j.status])).toEqual([
      ["build", "build", "pending"],
      ["test", "test", "created"],
    ]);
    expect(jobs[0]!.queuedAt).not.toBeNull();
    const row = await t.deps.prisma.pipeline.findUniqueOrThrow({ where: { id: Number(p.id) } });
    expect(row).toMatchObject({ protected: true, commitTitle: "commit .gitlab-ci.yml, README.md", commitAuthorName: "Ada" });
  });

  it("numbers pipelines per project and passes variables to rules", async () => {
    const p = await createPipelineRpc(t.deps)(request("main", { variables: [{ key: "DEPLOY", value: "yes", variableType: "" }] }));
    expect(p.iid).toBe(2);
    expect((await jobsOf(Number(p.id))).map((j) => j.name)).toEqual(["build", "test", "deploy"]);
    const row = await t.deps.prisma.pipeline.findUniqueOrThrow({ where: { id: Number(p.id) } });
    expect(row.variables).toEqual([{ key: "DEPLOY", value: "yes", variable_type: "env_var" }]);
  });

  it("creates tag pipelines", async () => {
    const sha = t.commit(1, { "tagged.txt": "x" });
    t.tag(1, "v1.0.0", sha);
    const p = await createPipelineRpc(t.deps)(request("v1.0.0"));
    expect(p).toMatchObject({ ref: "v1.0.0", tag: true, sha });
  });

  it("refuses an unknown ref, a missing config and an invalid config, storing nothing", async () => {
    const before = await t.deps.prisma.pipeline.count();
    expect(await refusal(createPipelineRpc(t.deps)(request("nope")))).toEqual({ status: 400, body: { message: { base: ["Reference not found"] } } });
    expect(await refusal(createPipelineRpc(t.deps)({ ...request("main"), project: { ...request("main").project!, ciConfigPath: "missing.yml" } }))).toEqual({
      status: 400,
      body: { message: { base: ["Missing CI config file"] } },
    });
    t.commit(1, { ".gitlab-ci.yml": "build:\n  stage: nowhere\n  script: x\n" }, "broken");
    const invalid = await refusal(createPipelineRpc(t.deps)(request("broken")));
    expect(invalid?.status).toBe(400);
    expect((invalid!.body as { message: { base: string[] } }).message.base.join()).toMatch(/build job: chosen stage nowhere does not exist/);
    expect(await t.deps.prisma.pipeline.count()).toBe(before);
  });

  it("refuses a pipeline whose rules leave no job", async () => {
    t.commit(1, { ".gitlab-ci.yml": "only-deploy:\n  script: x\n  rules:\n    - if: $NEVER\n" }, "filtered");
    expect(await refusal(createPipelineRpc(t.deps)(request("filtered")))).toEqual({
      status: 400,
      body: {
        message: { base: ["Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline."] },
      },
    });
  });

  it("reads include: local files from the same commit", async () => {
    t.commit(1, { ".gitlab-ci.yml": "include:\n  - local: ci/jobs.yml\n", "ci/jobs.yml": "lint:\n  script: echo lint\n" }, "included");
    const p = await createPipelineRpc(t.deps)(request("included"));
    expect((await jobsOf(Number(p.id))).map((j) => j.name)).toEqual(["lint"]);
  });
});
