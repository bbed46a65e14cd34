import { describe, expect, it } from "vitest";
import { compileConfig } from "./config.ts";
import { compilePipeline } from "./compile.ts";
import { pipelineContext } from "./test-context.ts";

/** The yaml_errors of an invalid configuration. */
function errorsOf(yaml: string, ctx = pipelineContext()): string[] {
  const result = compilePipeline(yaml, ctx);
  if (result.status !== "invalid") throw new Error(`expected errors, got ${JSON.stringify(result)}`);
  return result.errors;
}

describe("configuration errors (GitLab's yaml_errors wording)", () => {
  it.each([
    ["empty file", "", ["Please provide content of .gitlab-ci.yml"]],
    ["only whitespace", "  \n", ["Please provide content of .gitlab-ci.yml"]],
    ["not a hash", "- a\n- b\n", ["Invalid configuration format"]],
    ["no visible job", "stages: [build]\n.hidden:\n  script: ls\n", ["jobs config should contain at least one visible job"]],
    [
      "job without script or trigger",
      "build:\n  stage: test\n",
      ["jobs build config should implement a script: or a trigger: keyword", "jobs config should contain at least one visible job"],
    ],
    ["job that is not a hash", "build: echo hi\ntest:\n  script: ls\n", ["jobs build config should implement a script: or a trigger: keyword"]],
    ["blank script", "build:\n  script: []\n", ["jobs:build script can't be blank"]],
    ["script of hashes", "build:\n  script:\n    - a: b\n", ["jobs:build:script config should be a string or a nested array of strings up to 10 levels deep"]],
    ["unknown keys", "build:\n  script: ls\n  foo: 1\n  bar: 2\n", ["jobs:build config contains unknown keys: foo, bar"]],
    ["script with trigger", "build:\n  script: ls\n  trigger: a/b\n", ["jobs:build config these keys cannot be used together: script, trigger"]],
    ["bridge with a job key", "child:\n  trigger:\n    include: a.yml\n  artifacts:\n    paths: [x]\n", ["jobs:child config contains unknown keys: artifacts"]],
    [
      "unknown stage",
      "stages: [build]\ntest:\n  stage: deploy\n  script: ls\n",
      ["test job: chosen stage deploy does not exist; available stages are .pre, build, .post"],
    ],
    [
      "default stage missing from stages",
      "stages: [build]\ntest:\n  script: ls\n",
      ["test job: chosen stage test does not exist; available stages are .pre, build, .post"],
    ],
    ["bad when", "a:\n  script: ls\n  when: sometimes\n", ["jobs:a when should be one of: on_success, on_failure, always, manual, delayed"]],
    ["bridge when delayed", "a:\n  trigger: g/p\n  when: delayed\n", ["jobs:a when should be one of: on_success, on_failure, always, manual"]],
    ["delayed without start_in", "a:\n  script: ls\n  when: delayed\n", ["jobs:a start in should be a duration"]],
    ["start_in beyond a week", "a:\n  script: ls\n  when: delayed\n  start_in: 8 days\n", ["jobs:a start in should not exceed the limit"]],
    ["start_in without delayed", "a:\n  script: ls\n  start_in: 1 hour\n", ["jobs:a start in must be blank"]],
    ["rules with only", "a:\n  script: ls\n  only: [main]\n  rules:\n    - when: always\n", ["jobs:a config key may not be used with `rules`: only"]],
    ["rules not a list", "a:\n  script: ls\n  rules: {if: $X}\n", ["jobs:a rules should be an array of hashes"]],
    ["rule unknown key", "a:\n  script: ls\n  rules:\n    - iff: $X\n", ["jobs:a:rules:rule config contains unknown keys: iff"]],
    ["rule bad if", "a:\n  script: ls\n  rules:\n    - if: $X = 'a'\n", ["jobs:a:rules:rule if invalid expression syntax"]],
    ["rule bad when", "a:\n  script: ls\n  rules:\n    - when: later\n", ["jobs:a:rules:rule when unknown value: later"]],
    ["rule allow_failure", "a:\n  script: ls\n  rules:\n    - allow_failure: maybe\n", ["jobs:a:rules:rule allow_failure should be a boolean value"]],
    ["rule delayed without start_in", "a:\n  script: ls\n  rules:\n    - when: delayed\n", ["jobs:a:rules:rule start in can't be blank"]],
    ["timeout", "a:\n  script: ls\n  timeout: a while\n", ["jobs:a:timeout config should be a duration"]],
    ["timeout beyond a month", "a:\n  script: ls\n  timeout: 2 months\n", ["jobs:a:timeout config should not exceed the limit"]],
    ["retry above 2", "a:\n  script: ls\n  retry: 3\n", ["jobs:a:retry config must be less than or equal to 2"]],
    ["retry max above 2", "a:\n  script: ls\n  retry:\n    max: 5\n", ["jobs:a:retry max must be less than or equal to 2"]],
    ["retry when", "a:\n  script: ls\n  retry:\n    max: 1\n    when: [script_failure, bad_luck]\n", ["jobs:a:retry when contains unknown values: bad_luck"]],
    ["retry type", "a:\n  script: ls\n  retry: often\n", ["jobs:a:retry config has to be either an integer or a hash"]],
    ["artifacts unknown keys", "a:\n  script: ls\n  artifacts:\n    path: [x]\n", ["jobs:a:artifacts config contains unknown keys: path"]],
    ["artifacts when", "a:\n  script: ls\n  artifacts:\n    when: sometimes\n", ["jobs:a:artifacts when should be on_success, on_failure or always"]],
    ["artifacts expire_in", "a:\n  script: ls\n  artifacts:\n    expire_in: later\n", ["jobs:a:artifacts expire in should be a duration"]],
    [
      "artifacts report type",
      "a:\n  script: ls\n  artifacts:\n    reports:\n      junits: x.xml\n",
      ["jobs:a:artifacts:reports config contains unknown keys: junits"],
    ],
    [
      "junit not strings",
      "a:\n  script: ls\n  artifacts:\n    reports:\n      junit: {a: 1}\n",
      ["jobs:a:artifacts:reports junit should be an array of strings or a string"],
    ],
    ["variables not a hash", "a:\n  script: ls\n  variables: [A]\n", ["jobs:a:variables config should be a hash of key value pairs, value can be a hash"]],
    ["global variables", "variables: [A]\na:\n  script: ls\n", ["variables config should be a hash of key value pairs, value can be a hash"]],
    ["tags", "a:\n  script: ls\n  tags: {a: 1}\n", ["jobs:a:tags config should be an array of strings"]],
    ["dependencies", "a:\n  script: ls\n  dependencies: build\n", ["jobs:a dependencies should be an array of strings"]],
    ["allow_failure", "a:\n  script: ls\n  allow_failure: sometimes\n", ["jobs:a:allow_failure config should be a hash or a boolean value"]],
    ["environment without name", "a:\n  script: ls\n  environment:\n    url: https://x\n", ["jobs:a:environment name can't be blank"]],
    ["coverage", "a:\n  script: ls\n  coverage: 'Lines: (\\d+)'\n", ["jobs:a:coverage config must be a regular expression with re2 syntax"]],
    // Patterns JavaScript accepts but RE2 (GitLab's engine, linear time) refuses.
    ["coverage RE2 refuses", "a:\n  script: ls\n  coverage: '/(\\d+)\\1%/'\n", ["jobs:a:coverage config must be a regular expression with re2 syntax"]],
    [
      "only regex RE2 refuses",
      "a:\n  script: ls\n  only: ['/^(?!main)/']\n",
      ["jobs:a:only config should be an array of strings or regular expressions using re2 syntax"],
    ],
    [
      "except refs regex RE2 refuses",
      "a:\n  script: ls\n  except:\n    refs: ['/^(a)\\1$/']\n",
      ["jobs:a:except:refs config should be an array of strings or regular expressions"],
    ],
    ["rules if regex RE2 refuses", "a:\n  script: ls\n  rules:\n    - if: $X =~ /^(a)\\1$/\n", ["jobs:a:rules:rule if invalid expression syntax"]],
    ["image", "a:\n  script: ls\n  image: {entrypoint: ['']}\n", ["jobs:a:image name can't be blank"]],
    ["needs format", "a:\n  script: ls\n  needs: build\n", ["jobs:a:needs config can only be a hash or an array"]],
    [
      "need unknown key",
      "b:\n  script: ls\na:\n  script: ls\n  needs:\n    - job: b\n      artefacts: false\n",
      ["jobs:a:needs:need config contains unknown keys: artefacts"],
    ],
    ["trigger strategy", "a:\n  trigger:\n    include: c.yml\n    strategy: wait\n", ["jobs:a:trigger strategy should be depend"]],
    ["stages", "stages: build\na:\n  script: ls\n", ["stages config should be an array of strings"]],
    ["default unknown key", "default:\n  script: ls\na:\n  script: ls\n", ["default config contains unknown keys: script"]],
    [
      "default invalid entry",
      "default:\n  before_script: {a: 1}\na:\n  script: ls\n",
      ["default:before_script config should be a string or a nested array of strings up to 10 levels deep"],
    ],
    ["workflow unknown key", "workflow:\n  when: always\na:\n  script: ls\n", ["workflow config contains unknown keys: when"]],
    ["workflow rule when", "workflow:\n  rules:\n    - when: manual\na:\n  script: ls\n", ["workflow:rules:rule when unknown value: manual"]],
    ["workflow rule if", "workflow:\n  rules:\n    - if: $A ==\na:\n  script: ls\n", ["workflow:rules:rule if invalid expression syntax"]],
    ["only refs type", "a:\n  script: ls\n  only: 5\n", ["jobs:a:only config should be an array of strings or regular expressions using re2 syntax"]],
    ["except unknown key", "a:\n  script: ls\n  except:\n    branch: [main]\n", ["jobs:a:except config contains unknown keys: branch"]],
    ["parallel", "a:\n  script: ls\n  parallel: 500\n", ["jobs:a:parallel config must be greater than or equal to 1 and less than or equal to 200"]],
    ["extends type", ".t:\n  script: ls\na:\n  extends: {x: 1}\n  script: ls\n", ["jobs:a extends should be an array of strings or a string"]],
  ])("%s", (_, yaml, expected) => {
    expect(errorsOf(yaml)).toEqual(expected);
  });

  it("reports an invalid YAML document in Psych's shape", () => {
    const [error] = errorsOf("build:\n  script: [ls\n");
    expect(error).toMatch(/^\(<unknown>\): .+ at line \d+ column \d+$/);
  });

  it("returns every error, not only the first", () => {
    expect(errorsOf("a:\n  script: []\n  foo: 1\nb:\n  script: ls\n  when: later\n")).toEqual([
      "jobs:a config contains unknown keys: foo",
      "jobs:a script can't be blank",
      "jobs:b when should be one of: on_success, on_failure, always, manual, delayed",
    ]);
  });
});

describe("needs and dependencies (logical validation)", () => {
  it.each([
    ["undefined need", "a:\n  script: ls\n  needs: [ghost]\n", ["a job: undefined need: ghost"]],
    ["undefined dependency", "a:\n  script: ls\n  dependencies: [ghost]\n", ["a job: undefined dependency: ghost"]],
    [
      "need in a later stage",
      "a:\n  stage: build\n  script: ls\n  needs: [b]\nb:\n  stage: test\n  script: ls\n",
      ["a job: need b is not defined in current or prior stages"],
    ],
    [
      "dependency in a later stage",
      "a:\n  stage: build\n  script: ls\n  dependencies: [b]\nb:\n  stage: deploy\n  script: ls\n",
      ["a job: dependency b is not defined in current or prior stages"],
    ],
    ["duplicated needs", "b:\n  script: ls\na:\n  script: ls\n  needs: [b, b]\n", ["a has the following needs duplicated: b."]],
    [
      "dependency outside needs",
      "b:\n  stage: build\n  script: ls\nc:\n  stage: build\n  script: ls\na:\n  script: ls\n  needs: [b]\n  dependencies: [b, c]\n",
      ["jobs:a dependencies the c should be part of needs"],
    ],
    ["need in rules", "a:\n  script: ls\n  rules:\n    - needs: [ghost]\n", ["a job: undefined need: ghost"]],
    [
      "circular needs in one stage",
      "a:\n  script: ls\n  needs: [b]\nb:\n  script: ls\n  needs: [a]\n",
      ['The pipeline has circular dependencies: topological sort failed: ["a", "b"]'],
    ],
    ["self need", "a:\n  script: ls\n  needs: [a]\n", ["The pipeline has circular dependencies: self-dependency: a"]],
  ])("%s", (_, yaml, expected) => {
    expect(errorsOf(yaml)).toEqual(expected);
  });

  it("accepts an optional need of a job the configuration does not define", () => {
    const result = compileConfig("a:\n  script: ls\n  needs:\n    - job: ghost\n      optional: true\n", pipelineContext());
    expect(result.ok).toBe(true);
  });

  it("accepts needs within the same stage", () => {
    expect(compileConfig("a:\n  script: ls\nb:\n  script: ls\n  needs: [a]\n", pipelineContext()).ok).toBe(true);
  });
});
