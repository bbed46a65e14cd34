import { describe, expect, it } from "vitest";
import { compilePipeline } from "./compile.ts";
import { NO_JOBS, WORKFLOW_FILTERED } from "./seed.ts";
import { pipelineContext } from "./test-context.ts";
import type { CompiledPipeline, PipelineContext } from "./types.ts";

function pipeline(yaml: string, ctx: Partial<PipelineContext> = {}): CompiledPipeline {
  const result = compilePipeline(yaml, pipelineContext(ctx));
  if (result.status !== "pipeline") throw new Error(JSON.stringify(result));
  return result.pipeline;
}
const names = (yaml: string, ctx: Partial<PipelineContext> = {}) => pipeline(yaml, ctx).jobs.map((j) => j.name);
const job = (yaml: string, name = "job", ctx: Partial<PipelineContext> = {}) => pipeline(yaml, ctx).jobs.find((j) => j.name === name)!;

describe("rules", () => {
  const ruled = (rules: string) => `keep:\n  script: ls\njob:\n  script: ls\n  rules:\n${rules}`;

  it.each([
    ["a rule without if always matches", "    - when: on_success\n", {}, true],
    ["no rule matches: excluded", "    - if: $NOPE\n", {}, false],
    ["when: never excludes", "    - if: $CI_COMMIT_BRANCH\n      when: never\n    - when: always\n", {}, false],
    ["the first matching rule wins", "    - if: $CI_COMMIT_TAG\n      when: never\n    - when: on_success\n", {}, true],
    ["default branch", "    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH\n", {}, true],
    ["not the default branch", "    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH\n", { ref: "topic" }, false],
    ["tag", "    - if: $CI_COMMIT_TAG\n", { ref: "v1", tag: true }, true],
    ["web source", '    - if: $CI_PIPELINE_SOURCE == "web"\n', { source: "web" as const }, true],
    ["push source", '    - if: $CI_PIPELINE_SOURCE == "web"\n', {}, false],
    ["regex on the ref", "    - if: $CI_COMMIT_REF_NAME =~ /^release-\\d+$/\n", { ref: "release-12" }, true],
    ["pipeline variable", '    - if: $RUN == "yes"\n', { variables: { RUN: "yes" } }, true],
    ["changes without a diff", "    - changes: [src/**/*]\n", {}, true],
    ["changes with a diff", "    - changes: [src/**/*.ts]\n", { changedPaths: ["README.md"] }, false],
    ["changes with a matching diff", "    - changes:\n        paths: [src/**/*.ts]\n", { changedPaths: ["src/a/b.ts"] }, true],
    ["exists", "    - exists: [Dockerfile]\n", { repositoryPaths: ["Dockerfile"] }, true],
    ["exists, missing", "    - exists: [Dockerfile]\n", { repositoryPaths: ["README.md"] }, false],
    ["every clause must hold", "    - if: $CI_COMMIT_BRANCH\n      exists: [Dockerfile]\n", { repositoryPaths: [] }, false],
  ])("%s", (_, rules, ctx, included) => {
    expect(names(ruled(rules), ctx).includes("job")).toBe(included);
  });

  it("can use the job's own variables", () => {
    const yaml = 'job:\n  script: ls\n  variables: {FLAVOUR: "fast"}\n  rules:\n    - if: $FLAVOUR == "fast"\n';
    expect(names(yaml)).toEqual(["job"]);
  });

  it("sets when, allow_failure, variables, start_in and needs from the matching rule", () => {
    const yaml = `
variables: {A: global, B: global}
build:
  stage: build
  script: ls
lint:
  stage: build
  script: ls
job:
  script: ls
  needs: [build]
  variables: {B: job}
  rules:
    - if: $CI_COMMIT_BRANCH
      when: delayed
      start_in: 30 minutes
      allow_failure: true
      variables: {B: rule, C: rule}
      needs: [lint]
`;
    expect(job(yaml)).toMatchObject({
      when: "delayed",
      startInSeconds: 1800,
      allowFailure: true,
      variables: { A: "global", B: "rule", C: "rule" },
      needs: [{ name: "lint", artifacts: true, optional: false }],
    });
  });

  it("overrides interruptible from the matching rule", () => {
    const yaml = "job:\n  script: ls\n  interruptible: false\n  rules:\n    - interruptible: true\n";
    expect(job(yaml).interruptible).toBe(true);
  });

  it("inherits the job-level when when the rule has none", () => {
    const yaml = "job:\n  script: ls\n  when: manual\n  rules:\n    - if: $CI_COMMIT_BRANCH\n";
    expect(job(yaml)).toMatchObject({ when: "manual", allowFailure: true });
  });

  it("does not allow a rule-manual job to fail unless told so", () => {
    const yaml = "job:\n  script: ls\n  rules:\n    - when: manual\n";
    expect(job(yaml)).toMatchObject({ when: "manual", allowFailure: false });
    const allowed = "job:\n  script: ls\n  allow_failure: true\n  rules:\n    - when: manual\n";
    expect(job(allowed)).toMatchObject({ when: "manual", allowFailure: true });
  });
});

describe("workflow", () => {
  it("filters the pipeline when no workflow rule matches", () => {
    const yaml = "workflow:\n  rules:\n    - if: $CI_COMMIT_TAG\njob:\n  script: ls\n";
    expect(compilePipeline(yaml, pipelineContext())).toEqual({ status: "filtered", reason: "workflow_rules", message: WORKFLOW_FILTERED });
  });

  it("filters the pipeline when the matching rule says never", () => {
    const yaml = 'workflow:\n  rules:\n    - if: $CI_PIPELINE_SOURCE == "push"\n      when: never\n    - when: always\njob:\n  script: ls\n';
    expect(compilePipeline(yaml, pipelineContext()).status).toBe("filtered");
    expect(compilePipeline(yaml, pipelineContext({ source: "web" })).status).toBe("pipeline");
  });

  it("applies the matching rule's variables to every job and expands the pipeline name", () => {
    const yaml = `
variables: {ENV: dev, KEEP: "1"}
workflow:
  name: "Deploy to $ENV ($CI_COMMIT_REF_NAME)"
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
      variables: {ENV: prod}
    - when: always
job:
  script: ls
  rules:
    - if: $ENV == "prod"
`;
    const onMain = pipeline(yaml);
    expect(onMain.workflow).toEqual({ name: "Deploy to prod (main)", variables: { ENV: "prod", KEEP: "1" } });
    expect(onMain.jobs[0]!.variables).toEqual({ ENV: "prod", KEEP: "1" });
  });

  it("returns no_jobs when rules leave nothing to run", () => {
    const yaml = "job:\n  script: ls\n  rules:\n    - if: $NOPE\n";
    expect(compilePipeline(yaml, pipelineContext())).toEqual({ status: "filtered", reason: "no_jobs", message: NO_JOBS });
  });

  it("returns no_jobs when only .pre and .post jobs remain", () => {
    const yaml = "pre:\n  stage: .pre\n  script: ls\npost:\n  stage: .post\n  script: ls\njob:\n  script: ls\n  only: [tags]\n";
    expect(compilePipeline(yaml, pipelineContext()).status).toBe("filtered");
  });
});

describe("stages", () => {
  it("defaults to .pre, build, test, deploy, .post and puts stageless jobs in test", () => {
    const p = pipeline("pre:\n  stage: .pre\n  script: ls\njob:\n  script: ls\npost:\n  stage: .post\n  script: ls\n");
    expect(p.stages).toEqual([".pre", "build", "test", "deploy", ".post"]);
    expect(p.jobs.map((j) => [j.name, j.stage, j.stageIdx])).toEqual([
      ["pre", ".pre", 0],
      ["job", "test", 2],
      ["post", ".post", 4],
    ]);
  });

  it("keeps .pre first and .post last whatever the file says", () => {
    expect(pipeline("stages: [.post, b, .pre, a]\njob:\n  stage: a\n  script: ls\n").stages).toEqual([".pre", "b", "a", ".post"]);
  });

  it("orders jobs by stage, then by position in the file", () => {
    const yaml = "stages: [one, two]\nb:\n  stage: two\n  script: ls\na:\n  stage: one\n  script: ls\nc:\n  stage: one\n  script: ls\n";
    expect(names(yaml)).toEqual(["a", "c", "b"]);
  });
});

describe("needs and dependencies in the created pipeline", () => {
  const base = "build:\n  stage: build\n  script: ls\n  rules:\n    - if: $CI_COMMIT_TAG\n";

  it("fails when a needed job was left out by its rules", () => {
    const result = compilePipeline(`${base}test:\n  script: ls\n  needs: [build]\n`, pipelineContext());
    expect(result).toEqual({
      status: "invalid",
      errors: [
        "'test' job needs 'build' job, but 'build' does not exist in the pipeline. This might be because of the only, except, or rules keywords. To need a job that sometimes does not exist in the pipeline, use needs:optional.",
      ],
    });
  });

  it("drops an optional need of a job that was left out", () => {
    expect(job(`${base}job:\n  script: ls\n  needs:\n    - job: build\n      optional: true\n`).needs).toEqual([]);
  });

  it("keeps needs: [] (start at once) apart from no needs", () => {
    expect(job("job:\n  script: ls\n  needs: []\n").needs).toEqual([]);
    expect(job("job:\n  script: ls\n").needs).toBeNull();
  });

  it("records the artifacts and optional flags of needs", () => {
    const yaml = "a:\n  stage: build\n  script: ls\njob:\n  script: ls\n  needs:\n    - job: a\n      artifacts: false\n      optional: true\n";
    expect(job(yaml).needs).toEqual([{ name: "a", artifacts: false, optional: true }]);
  });

  it("keeps dependencies (null: all previous stages) and drops left-out ones", () => {
    expect(job("job:\n  script: ls\n").dependencies).toBeNull();
    expect(job(`${base}other:\n  stage: build\n  script: ls\njob:\n  script: ls\n  dependencies: [build, other]\n`).dependencies).toEqual(["other"]);
    expect(job("job:\n  script: ls\n  dependencies: []\n").dependencies).toEqual([]);
  });
});

describe("job attributes", () => {
  it("defaults allow_failure to true for manual jobs, unless set", () => {
    expect(job("job:\n  script: ls\n  when: manual\n")).toMatchObject({ when: "manual", allowFailure: true });
    expect(job("job:\n  script: ls\n  when: manual\n  allow_failure: false\n").allowFailure).toBe(false);
    expect(job("job:\n  script: ls\n").allowFailure).toBe(false);
  });

  it("keeps allow_failure exit codes", () => {
    expect(job("job:\n  script: ls\n  allow_failure:\n    exit_codes: [137, 255]\n").allowFailure).toEqual({ exitCodes: [137, 255] });
    expect(job("job:\n  script: ls\n  allow_failure:\n    exit_codes: 1\n").allowFailure).toEqual({ exitCodes: [1] });
  });

  it("reads delayed jobs' start_in", () => {
    expect(job("job:\n  script: ls\n  when: delayed\n  start_in: 1h 30m\n")).toMatchObject({ when: "delayed", startInSeconds: 5400 });
  });

  it.each([
    ["1h 30m", 5400],
    ["90 minutes", 5400],
    ["3600", 3600],
    [600, 600],
  ])("reads timeout %j", (timeout, seconds) => {
    expect(job(`job:\n  script: ls\n  timeout: ${JSON.stringify(timeout)}\n`).timeoutSeconds).toBe(seconds);
  });

  it("reads retry forms", () => {
    expect(job("job:\n  script: ls\n  retry: 2\n").retry).toEqual({ max: 2, when: ["always"], exitCodes: [] });
    expect(job("job:\n  script: ls\n  retry:\n    max: 1\n    when: script_failure\n    exit_codes: [1]\n").retry).toEqual({
      max: 1,
      when: ["script_failure"],
      exitCodes: [1],
    });
  });

  it("reads artifacts expiry, exclude, name and reports", () => {
    const yaml = `job:
  script: ls
  artifacts:
    name: report
    paths: [out/, logs/*.log]
    exclude: [out/tmp/**]
    expire_in: never
    when: on_failure
    untracked: true
    reports:
      junit: [a.xml, b.xml]
      dotenv: build.env
`;
    expect(job(yaml).artifacts).toEqual({
      name: "report",
      paths: ["out/", "logs/*.log"],
      exclude: ["out/tmp/**"],
      expireInSeconds: null,
      when: "on_failure",
      untracked: true,
      exposeAs: null,
      reports: { junit: ["a.xml", "b.xml"], dotenv: ["build.env"] },
    });
  });

  it("reads image, services, tags, environment, coverage, interruptible and resource_group", () => {
    const yaml = `job:
  script: ls
  image: {name: "alpine:3", entrypoint: [""]}
  services: [postgres:16, {name: redis:7, alias: cache}]
  tags: [linux, docker]
  environment: {name: production, url: "https://example.com", action: start}
  coverage: /Total.*?(\\d+)%/
  interruptible: true
  resource_group: prod
`;
    expect(job(yaml)).toMatchObject({
      image: "alpine:3",
      services: ["postgres:16", "redis:7"],
      tags: ["linux", "docker"],
      environment: { name: "production", url: "https://example.com", action: "start" },
      coverage: "Total.*?(\\d+)%",
      interruptible: true,
      resourceGroup: "prod",
    });
  });

  it("turns variable values into strings and takes `value` from expanded variables", () => {
    const yaml =
      'variables:\n  N: 3\n  DESC: {value: "x", description: "a choice"}\n  EMPTY: {description: "fill me"}\njob:\n  script: ls\n  variables: {F: 1.5}\n';
    expect(job(yaml).variables).toEqual({ N: "3", DESC: "x", EMPTY: "", F: "1.5" });
  });

  it("flattens nested script arrays", () => {
    expect(job("job:\n  script:\n    - a\n    - [b, [c]]\n").script).toEqual(["a", "b", "c"]);
  });
});

describe("default: and inherit:", () => {
  const yaml = `
image: legacy:1
before_script: [legacy before]
default:
  image: ruby:3
  after_script: [cleanup]
  tags: [shared]
  retry: 1
  timeout: 30m
  interruptible: true
  artifacts:
    paths: [default/]
variables: {A: a, B: b}
plain:
  script: ls
own:
  script: ls
  image: own:1
  before_script: []
  tags: [own]
  artifacts:
    paths: [own/]
none:
  script: ls
  inherit:
    default: false
    variables: false
some:
  script: ls
  inherit:
    default: [image]
    variables: [B]
`;
  const p = pipeline(yaml);
  const get = (name: string) => p.jobs.find((j) => j.name === name)!;

  it("gives jobs the defaults, with default: over the legacy top-level keys", () => {
    expect(get("plain")).toMatchObject({
      image: "ruby:3",
      beforeScript: ["legacy before"],
      afterScript: ["cleanup"],
      tags: ["shared"],
      retry: { max: 1 },
      timeoutSeconds: 1800,
      interruptible: true,
      artifacts: { paths: ["default/"] },
      variables: { A: "a", B: "b" },
    });
  });

  it("lets the job's own keys replace the defaults entirely", () => {
    expect(get("own")).toMatchObject({ image: "own:1", beforeScript: [], tags: ["own"], artifacts: { paths: ["own/"] } });
  });

  it("honours inherit: false and inherit lists", () => {
    expect(get("none")).toMatchObject({ image: null, beforeScript: [], afterScript: [], tags: [], retry: null, variables: {} });
    expect(get("some")).toMatchObject({ image: "ruby:3", afterScript: [], tags: [], variables: { B: "b" } });
  });
});

describe("parallel", () => {
  it("expands parallel: N into numbered jobs that needs can name as a whole", () => {
    const p = pipeline("test:\n  stage: build\n  script: ls\n  parallel: 3\nreport:\n  script: ls\n  needs: [test]\n");
    expect(p.jobs.map((j) => [j.name, j.parallel])).toEqual([
      ["test 1/3", { index: 1, total: 3 }],
      ["test 2/3", { index: 2, total: 3 }],
      ["test 3/3", { index: 3, total: 3 }],
      ["report", null],
    ]);
    expect(p.jobs[3]!.needs!.map((n) => n.name)).toEqual(["test 1/3", "test 2/3", "test 3/3"]);
  });

  it("expands parallel: matrix with each combination's variables", () => {
    const p = pipeline("deploy:\n  script: ls\n  parallel:\n    matrix:\n      - PROVIDER: aws\n        STACK: [app, db]\n      - PROVIDER: gcp\n");
    expect(p.jobs.map((j) => [j.name, j.variables])).toEqual([
      ["deploy: [aws, app]", { PROVIDER: "aws", STACK: "app" }],
      ["deploy: [aws, db]", { PROVIDER: "aws", STACK: "db" }],
      ["deploy: [gcp]", { PROVIDER: "gcp" }],
    ]);
  });
});

describe("bridges", () => {
  it.each([
    ["include: a path", "  trigger:\n    include: /ci/child.yml\n", { include: [{ local: "ci/child.yml" }], project: null, strategy: null }],
    [
      "include: a list of local files and a generated artifact",
      "  trigger:\n    include:\n      - local: ci/a.yml\n      - artifact: generated.yml\n        job: gen\n    strategy: depend\n",
      { include: [{ local: "ci/a.yml" }, { artifact: "generated.yml", job: "gen" }], strategy: "depend" },
    ],
    ["a project path", "  trigger: group/other\n", { include: [], project: "group/other", branch: null }],
    ["a project and branch", "  trigger:\n    project: group/other\n    branch: stable\n", { project: "group/other", branch: "stable" }],
  ])("trigger with %s", (_, snippet, expected) => {
    const yaml = `gen:\n  stage: build\n  script: ls\nchild:\n${snippet}`;
    expect(pipeline(yaml).bridges[0]).toMatchObject(expected);
  });

  it("applies when, allow_failure, needs and rules to bridges", () => {
    const yaml =
      "a:\n  stage: build\n  script: ls\nchild:\n  trigger: {include: c.yml}\n  needs: [a]\n  rules:\n    - when: manual\n      allow_failure: true\n";
    expect(pipeline(yaml).bridges[0]).toMatchObject({ when: "manual", allowFailure: true, needs: [{ name: "a" }] });
  });
});
