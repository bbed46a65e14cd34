import { describe, expect, it } from "vitest";
import { compilePipeline } from "./compile.ts";
import { resolveExtends } from "./extends.ts";
import { pipelineContext } from "./test-context.ts";
import type { CompiledJob } from "./types.ts";

function jobs(yaml: string): Record<string, CompiledJob> {
  const result = compilePipeline(yaml, pipelineContext());
  if (result.status !== "pipeline") throw new Error(JSON.stringify(result));
  return Object.fromEntries(result.pipeline.jobs.map((j) => [j.name, j]));
}

function errors(yaml: string): string[] {
  const result = compilePipeline(yaml, pipelineContext());
  if (result.status !== "invalid") throw new Error(JSON.stringify(result));
  return result.errors;
}

describe("extends", () => {
  it("deep-merges hashes across several levels, replaces arrays, and lets the job win", () => {
    const { job } = jobs(`
.base:
  script: [base]
  tags: [a, b]
  variables: {A: base, B: base}
  artifacts:
    paths: [base/]
    expire_in: 1 day
.middle:
  extends: .base
  variables: {B: middle, C: middle}
  tags: [c]
job:
  extends: .middle
  variables: {C: job}
  artifacts:
    paths: [job/]
`);
    expect(job!.script).toEqual(["base"]);
    expect(job!.tags).toEqual(["c"]);
    expect(job!.variables).toEqual({ A: "base", B: "middle", C: "job" });
    expect(job!.artifacts).toMatchObject({ paths: ["job/"], expireInSeconds: 86_400 });
  });

  it("merges several bases in order, the later winning", () => {
    const { job } = jobs(`
.one: {script: one, variables: {X: one, Y: one}}
.two: {variables: {Y: two}, tags: [two]}
job:
  extends: [.one, .two]
`);
    expect(job).toMatchObject({ script: ["one"], tags: ["two"], variables: { X: "one", Y: "two" } });
  });

  it("can extend a visible job", () => {
    const result = jobs("a:\n  script: a\n  stage: build\nb:\n  extends: a\n  script: b\n");
    expect(result.b).toMatchObject({ script: ["b"], stage: "build" });
  });

  it.each([
    [".a:\n  extends: .b\n.b:\n  extends: .a\njob:\n  extends: .a\n  script: ls\n", ".a: circular dependency detected in `extends`"],
    ["job:\n  extends: job\n  script: ls\n", "job: circular dependency detected in `extends`"],
    ["job:\n  extends: .missing\n  script: ls\n", "job: unknown keys in `extends` (.missing)"],
    [".list: [a]\njob:\n  extends: .list\n  script: ls\n", "job: invalid base hashes in `extends` (.list)"],
  ])("rejects %j", (yaml, message) => {
    expect(errors(yaml)).toEqual([message]);
  });

  it("limits nesting to 10 levels", () => {
    const chain = Array.from({ length: 12 }, (_, i) => `.l${i}:\n  extends: .l${i + 1}\n`).join("");
    // The entry found too deep reports it, as in GitLab.
    expect(errors(`${chain}.l12:\n  script: ls\njob:\n  extends: .l0\n`)).toEqual([".l11: nesting too deep in `extends`"]);
  });

  it("does not touch entries without extends", () => {
    const config = { a: { script: "x" }, b: [1] };
    expect(resolveExtends(config, [])).toEqual(config);
  });
});

describe("YAML anchors and merge keys", () => {
  it("merges anchored hashes with <<, the job's keys winning", () => {
    const { job } = jobs(`
.common: &common
  image: ruby:3
  script: [common]
  variables: {A: anchor}
job:
  <<: *common
  script: [own]
`);
    expect(job).toMatchObject({ image: "ruby:3", script: ["own"], variables: { A: "anchor" } });
  });

  it("reuses anchored lists inside scripts", () => {
    const { job } = jobs(`
.setup: &setup
  - echo one
  - echo two
job:
  script:
    - *setup
    - echo three
`);
    expect(job!.script).toEqual(["echo one", "echo two", "echo three"]);
  });
});

describe("!reference", () => {
  it("inserts another entry's value, after extends", () => {
    const { job } = jobs(`
.setup:
  script: [echo setup]
  variables: {A: "1"}
.tpl:
  after_script: [echo done]
job:
  extends: .tpl
  script:
    - !reference [.setup, script]
    - echo job
  variables: !reference [.setup, variables]
`);
    expect(job).toMatchObject({ script: ["echo setup", "echo job"], afterScript: ["echo done"], variables: { A: "1" } });
  });

  it("reports a reference that points nowhere", () => {
    expect(errors("job:\n  script: !reference [.nope, script]\n")).toEqual(['!reference [".nope", "script"] could not be found']);
  });

  it("reports circular references", () => {
    expect(errors(".a:\n  s: !reference [.b, s]\n.b:\n  s: !reference [.a, s]\njob:\n  script: !reference [.a, s]\n")).toEqual([
      '!reference [".b", "s"] is part of a circular chain',
    ]);
  });

  it("stops references that expand exponentially", () => {
    const levels = Array.from({ length: 8 }, (_, i) => `.l${i + 1}: [${Array(10).fill(`!reference [.l${i}]`).join(", ")}]`);
    const yaml = `.l0: [echo]\n${levels.join("\n")}\njob:\n  script: !reference [.l8]\n`;
    expect(errors(yaml)).toEqual(["!reference tags expand to too large a configuration"]);
  });
});
