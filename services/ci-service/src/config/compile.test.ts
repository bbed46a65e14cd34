import { describe, expect, it } from "vitest";
import { compilePipeline } from "./compile.ts";
import { pipelineContext } from "./test-context.ts";
import type { CompiledPipeline, CompileResult } from "./types.ts";

const REALISTIC = `
stages: [build, test]

variables:
  APP: quarry
  LEVEL: global

.defaults: &defaults
  tags: [shell]
  retry: 1

.node:
  <<: *defaults
  image: node:20
  before_script:
    - npm ci
  variables:
    LEVEL: template

build:
  extends: .node
  stage: build
  script:
    - npm run build
  artifacts:
    name: "build-$CI_COMMIT_SHORT_SHA"
    paths: [dist/]
    expire_in: 1 week

unit:
  extends: .node
  stage: test
  script: npm test
  needs: [build]
  coverage: '/Lines\\s*:\\s*(\\d+\\.\\d+)%/'
  artifacts:
    when: always
    reports:
      junit: junit.xml

lint:
  stage: test
  script: npm run lint
  allow_failure: true

deploy-review:
  stage: test
  script: ./deploy.sh
  when: manual
  environment:
    name: review/$CI_COMMIT_REF_SLUG

release:
  stage: test
  script: ./release.sh
  rules:
    - if: $CI_COMMIT_TAG

nightly:
  stage: test
  script: ./nightly.sh
  rules:
    - if: $CI_PIPELINE_SOURCE == "web"
      when: manual
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
      variables:
        LEVEL: rule

feature-only:
  stage: test
  script: echo feature
  rules:
    - if: $CI_COMMIT_BRANCH =~ /^feature\\//

child:
  stage: test
  trigger:
    include: ci/child.yml
    strategy: depend
`;

function pipeline(result: CompileResult): CompiledPipeline {
  if (result.status !== "pipeline") throw new Error(`expected a pipeline, got ${JSON.stringify(result)}`);
  return result.pipeline;
}

describe("compilePipeline: a realistic configuration", () => {
  const onMain = pipeline(compilePipeline(REALISTIC, pipelineContext()));
  const job = (name: string) => onMain.jobs.find((j) => j.name === name);

  it("keeps the declared stages around .pre and .post", () => {
    expect(onMain.stages).toEqual([".pre", "build", "test", ".post"]);
  });

  it("selects the jobs whose rules match a push to the default branch, in stage order", () => {
    expect(onMain.jobs.map((j) => j.name)).toEqual(["build", "unit", "lint", "deploy-review", "nightly"]);
    expect(onMain.bridges.map((b) => b.name)).toEqual(["child"]);
  });

  it("merges anchors, extends and global variables into the build job", () => {
    expect(job("build")).toEqual({
      name: "build",
      stage: "build",
      stageIdx: 1,
      when: "on_success",
      allowFailure: false,
      needs: null,
      variables: { APP: "quarry", LEVEL: "template" },
      startInSeconds: null,
      interruptible: null,
      resourceGroup: null,
      environment: null,
      script: ["npm run build"],
      beforeScript: ["npm ci"],
      afterScript: [],
      dependencies: null,
      tags: ["shell"],
      timeoutSeconds: null,
      retry: { max: 1, when: ["always"], exitCodes: [] },
      artifacts: {
        name: "build-$CI_COMMIT_SHORT_SHA",
        paths: ["dist/"],
        exclude: [],
        untracked: false,
        expireInSeconds: 604_800,
        when: "on_success",
        exposeAs: null,
        reports: { junit: [] },
      },
      image: "node:20",
      services: [],
      coverage: null,
      parallel: null,
    });
  });

  it("records needs, the junit report and the coverage pattern of the test job", () => {
    const unit = job("unit")!;
    expect(unit.needs).toEqual([{ name: "build", artifacts: true, optional: false }]);
    expect(unit.script).toEqual(["npm test"]);
    expect(unit.artifacts?.reports.junit).toEqual(["junit.xml"]);
    expect(unit.artifacts?.when).toBe("always");
    expect(unit.artifacts).not.toHaveProperty("expireInSeconds");
    expect(unit.coverage).toBe("Lines\\s*:\\s*(\\d+\\.\\d+)%");
    expect(unit.stageIdx).toBe(2);
  });

  it("marks the allowed-to-fail and manual jobs", () => {
    expect(job("lint")).toMatchObject({ allowFailure: true, when: "on_success" });
    expect(job("deploy-review")).toMatchObject({
      when: "manual",
      allowFailure: true,
      environment: { name: "review/$CI_COMMIT_REF_SLUG" },
    });
  });

  it("applies the variables of the matching rule", () => {
    expect(job("nightly")).toMatchObject({ when: "on_success", variables: { APP: "quarry", LEVEL: "rule" } });
  });

  it("compiles the child pipeline trigger as a bridge", () => {
    expect(onMain.bridges[0]).toEqual({
      name: "child",
      stage: "test",
      stageIdx: 2,
      when: "on_success",
      allowFailure: false,
      needs: null,
      variables: { APP: "quarry", LEVEL: "global" },
      startInSeconds: null,
      interruptible: null,
      resourceGroup: null,
      environment: null,
      include: [{ local: "ci/child.yml" }],
      project: null,
      branch: null,
      strategy: "depend",
      forward: { yamlVariables: true, pipelineVariables: false },
    });
  });

  it("runs the release job on tags only", () => {
    const onTag = pipeline(compilePipeline(REALISTIC, pipelineContext({ ref: "v1.0.0", tag: true })));
    expect(onTag.jobs.map((j) => j.name)).toEqual(["build", "unit", "lint", "deploy-review", "release"]);
  });

  it("makes the nightly job manual, and not allowed to fail, for web pipelines", () => {
    const web = pipeline(compilePipeline(REALISTIC, pipelineContext({ source: "web", ref: "topic" })));
    expect(web.jobs.find((j) => j.name === "nightly")).toMatchObject({ when: "manual", allowFailure: false });
  });

  it("matches branch names with a regex rule", () => {
    const feature = pipeline(compilePipeline(REALISTIC, pipelineContext({ ref: "feature/login" })));
    expect(feature.jobs.map((j) => j.name)).toContain("feature-only");
    expect(feature.jobs.map((j) => j.name)).not.toContain("nightly");
  });
});

describe("compilePipeline never throws on user input", () => {
  const KEYS = [
    "script",
    "stage",
    "when",
    "start_in",
    "allow_failure",
    "needs",
    "dependencies",
    "rules",
    "only",
    "except",
    "variables",
    "artifacts",
    "retry",
    "timeout",
    "tags",
    "image",
    "services",
    "environment",
    "coverage",
    "parallel",
    "trigger",
    "extends",
    "inherit",
    "before_script",
    "after_script",
    "interruptible",
    "resource_group",
  ];
  const VALUES = ["null", "1", "-1", "x", "[]", "{}", "true", "[1]", "[{}]", "[[[]]]", "{a: {b: c}}", "'/['", "[{if: 1}]"];

  it("answers every wrongly typed job keyword with a result", () => {
    for (const key of KEYS) {
      for (const value of VALUES) {
        const yaml = `${key === "script" ? "" : "base:\n  script: ls\n"}job:\n  script: ls\n  ${key}: ${value}\n`;
        const result = compilePipeline(yaml, pipelineContext());
        expect(["pipeline", "filtered", "invalid"], `${key}: ${value}`).toContain(result.status);
      }
    }
  });

  it("answers every truncation of the realistic configuration with a result", () => {
    const lines = REALISTIC.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const yaml = [...lines.slice(0, i), ...lines.slice(i + 1)].join("\n");
      expect(["pipeline", "filtered", "invalid"]).toContain(compilePipeline(yaml, pipelineContext()).status);
    }
  });
});
