import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpErrorFromGrpc } from "@quarry/grpc";
import { pipelineFrom, requestAs, runner, statuses } from "../../test/pipelines.ts";
import { setUp, type TestContext } from "../../test/support.ts";

let t: TestContext;
beforeAll(async () => {
  t = await setUp("ci_request_job", { repo: true });
}, 60_000);
afterAll(() => t.close());

// Each test leaves no pending job behind, so the instance runners of later tests see only their own.
const drain = async (token: string) => {
  while (await requestAs(t, token));
};

describe("RequestJob", () => {
  it("hands the oldest pending job over with everything a runner needs, and marks it running", async () => {
    const yaml = `
variables: { GLOBAL: g }
build:
  stage: build
  before_script: [echo before]
  script: [echo "$GLOBAL"]
  after_script: [echo after]
  timeout: 10m
  variables: { GIT_DEPTH: "3" }
  artifacts:
    name: out
    paths: [dist/]
    exclude: [dist/*.tmp]
    expire_in: 1 week
    reports: { junit: report.xml }
test:
  stage: test
  script: [echo test]
`;
    const { pipeline, sha } = await pipelineFrom(t, yaml);
    const r = await runner(t, { maximumTimeout: 300 });
    const job = await requestAs(t, r.token);
    expect(job).toMatchObject({
      name: "build",
      stage: "build",
      projectId: pipeline.projectId,
      sha,
      ref: "main",
      refType: "branch",
      refspecs: ["+refs/heads/main:refs/remotes/origin/main"],
      depth: 3,
      timeout: 300,
      image: "",
    });
    expect(job!.token).toMatch(/^glcbt-/);
    expect(job!.repoUrl).toBe(`http://gitlab-ci-token:${job!.token}@quarry.test:8080/${pipeline.projectPath}.git`);
    expect(job!.steps).toEqual([
      { name: "script", script: ["echo before", 'echo "$GLOBAL"'], timeout: 300, when: "on_success", allowFailure: false },
      { name: "after_script", script: ["echo after"], timeout: 300, when: "always", allowFailure: true },
    ]);
    expect(job!.artifacts).toEqual([
      {
        name: "out",
        untracked: false,
        paths: ["dist/"],
        exclude: ["dist/*.tmp"],
        when: "on_success",
        artifactType: "archive",
        artifactFormat: "zip",
        expireIn: "604800 seconds",
      },
      {
        name: "junit",
        untracked: false,
        paths: ["report.xml"],
        exclude: [],
        when: "always",
        artifactType: "junit",
        artifactFormat: "gzip",
        expireIn: "604800 seconds",
      },
    ]);
    const vars = Object.fromEntries(job!.variables.map((v) => [v.key, v]));
    expect(vars.CI_JOB_TOKEN).toMatchObject({ value: job!.token, masked: true, public: false });
    expect(vars.CI_JOB_ID!.value).toBe(String(job!.id));
    expect(vars.CI_PROJECT_PATH!.value).toBe(pipeline.projectPath);
    expect(vars.CI_COMMIT_SHA!.value).toBe(sha);
    expect(vars.CI_COMMIT_BRANCH!.value).toBe("main");
    expect(vars.CI_SERVER_URL!.value).toBe("http://quarry.test:8080");
    expect(vars.CI_API_V4_URL!.value).toBe("http://quarry.test:8080/api/v4");
    expect(vars.GLOBAL!.value).toBe("g");

    const row = await t.deps.prisma.job.findUniqueOrThrow({ where: { id: Number(job!.id) } });
    expect(row).toMatchObject({ status: "running", runnerId: r.id });
    expect(row.tokenDigest).not.toContain(job!.token);
    expect(await t.deps.prisma.pipeline.findUniqueOrThrow({ where: { id: pipeline.id } })).toMatchObject({ status: "running" });
    expect(await t.deps.prisma.runnerManager.findFirstOrThrow({ where: { runnerId: r.id } })).toMatchObject({
      systemId: "s_test",
      version: "1.0.0",
      ipAddress: "10.0.0.7",
    });
    expect(await statuses(t, pipeline.id)).toEqual({ build: "running", test: "created" });
    // The next stage waits: nothing else to hand out.
    expect(await requestAs(t, r.token)).toBeNull();
  });

  it("refuses unknown runner tokens with a bare 403", async () => {
    const err = await requestAs(t, "glrt-nope").catch((e: unknown) => httpErrorFromGrpc(e));
    expect(err).toEqual({ status: 403, body: { message: "403 Forbidden" } });
  });

  it("matches tags, untagged jobs, protected refs and project runners", async () => {
    const yaml = "tagged:\n  tags: [docker]\n  script: x\nuntagged:\n  script: x\n";
    const { pipeline } = await pipelineFrom(t, yaml);
    const other = await pipelineFrom(t, "elsewhere:\n  script: x\n", {}, { refProtected: true });
    const dockerOnly = await runner(t, { tagList: ["docker", "linux"], runUntagged: false, runnerType: "project_type", projectId: pipeline.projectId });
    const paused = await runner(t, { paused: true });
    const protectedOnly = await runner(t, { accessLevel: "ref_protected", runnerType: "project_type", projectId: pipeline.projectId });
    expect(await requestAs(t, paused.token)).toBeNull();
    expect((await requestAs(t, dockerOnly.token))?.name).toBe("tagged");
    expect(await requestAs(t, dockerOnly.token)).toBeNull(); // untagged job, and the other project's job
    expect(await requestAs(t, protectedOnly.token)).toBeNull(); // this project's ref is not protected
    const shared = await runner(t, { accessLevel: "ref_protected" });
    expect((await requestAs(t, shared.token))?.projectId).toBe(other.pipeline.projectId);
    await drain(shared.token);
  });

  it("gives a waiting request the job queued during its wait", async () => {
    const r = await runner(t);
    await drain(r.token);
    const waiting = requestAs(t, r.token, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { pipeline } = await pipelineFrom(t, "late:\n  script: x\n");
    const job = await waiting;
    expect(job).toMatchObject({ name: "late" });
    expect(Number(job!.projectId)).toBe(pipeline.projectId);
  });

  it("never hands one job to two runners racing for it", async () => {
    const yaml = Array.from({ length: 6 }, (_, i) => `job${i}:\n  script: x\n`).join("");
    await pipelineFrom(t, yaml);
    const racers = await Promise.all(Array.from({ length: 4 }, () => runner(t)));
    const got = (await Promise.all(racers.flatMap((r) => [requestAs(t, r.token), requestAs(t, r.token), requestAs(t, r.token)]))).filter((j) => j !== null);
    const ids = got.map((j) => Number(j!.id));
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
  });
});
