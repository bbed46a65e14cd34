import { describe, expect, it } from "vitest";
import { compilePipeline } from "./compile.ts";
import { pipelineContext } from "./test-context.ts";
import type { CompileResult, PipelineContext } from "./types.ts";

function withFiles(files: Record<string, string>, extra: Partial<PipelineContext> = {}): PipelineContext {
  const reads: string[] = [];
  return pipelineContext({
    readFile: (path) => {
      reads.push(path);
      return files[path] ?? null;
    },
    repositoryPaths: Object.keys(files),
    ...extra,
  });
}

const jobNames = (r: CompileResult) => (r.status === "pipeline" ? r.pipeline.jobs.map((j) => j.name) : r);

describe("include", () => {
  const files = {
    "ci/build.yml": "stages: [build, test]\nvariables: {FROM: build}\nbuild:\n  stage: build\n  script: make\n",
    "ci/templates.yml": ".tpl:\n  script: [from template]\n  tags: [tpl]\n",
    "ci/nested.yml": "include: ci/templates.yml\nnested:\n  extends: .tpl\n",
    "ci/override.yml": "job:\n  script: included\n  variables: {A: included, B: included}\n",
    "ci/a.yml": "include: ci/b.yml\na:\n  script: ls\n",
    "ci/b.yml": "include: ci/a.yml\nb:\n  script: ls\n",
    "ci/broken.yml": "job: [\n",
    "ci/list.yml": "- a\n",
    "ci/empty.yml": "",
  };

  it("merges a local file given as a string", () => {
    const r = compilePipeline("include: ci/build.yml\ntest:\n  script: ls\n", withFiles(files));
    expect(jobNames(r)).toEqual(["build", "test"]);
  });

  it("accepts local: hashes and leading slashes, and nested includes", () => {
    const r = compilePipeline("include:\n  - local: /ci/nested.yml\njob:\n  extends: .tpl\n", withFiles(files));
    expect(r.status === "pipeline" && r.pipeline.jobs.map((j) => [j.name, j.script, j.tags])).toEqual([
      ["nested", ["from template"], ["tpl"]],
      ["job", ["from template"], ["tpl"]],
    ]);
  });

  it("lets the including file win, merging hashes deeply", () => {
    const r = compilePipeline("include: ci/override.yml\njob:\n  variables: {B: main}\n", withFiles(files));
    expect(r.status === "pipeline" && r.pipeline.jobs[0]).toMatchObject({ script: ["included"], variables: { A: "included", B: "main" } });
  });

  it("includes each file once, so include cycles end", () => {
    expect(jobNames(compilePipeline("include: ci/a.yml\n", withFiles(files)))).toEqual(["b", "a"]);
  });

  it("expands wildcard paths against the repository files", () => {
    const r = compilePipeline("include: 'ci/{a,build}.yml'\n", withFiles(files));
    expect(jobNames(r)).toEqual(["build", "b", "a"]);
  });

  it("skips an include whose rules do not match", () => {
    const yaml = "include:\n  - local: ci/build.yml\n    rules:\n      - if: $CI_COMMIT_TAG\ntest:\n  script: ls\n";
    expect(jobNames(compilePipeline(yaml, withFiles(files)))).toEqual(["test"]);
    expect(jobNames(compilePipeline(yaml, withFiles(files, { ref: "v1", tag: true })))).toEqual(["build", "test"]);
  });

  it("treats an empty included file as adding nothing", () => {
    expect(jobNames(compilePipeline("include: ci/empty.yml\njob:\n  script: ls\n", withFiles(files)))).toEqual(["job"]);
  });

  it.each([
    ["a missing local file", "include: ci/missing.yml\n", "Local file `ci/missing.yml` does not exist!"],
    ["a file without a YAML extension", "include: ci/script.sh\n", "Included file `ci/script.sh` does not have YAML extension!"],
    ["invalid YAML", "include: ci/broken.yml\n", "Included file `ci/broken.yml` does not have valid YAML syntax!"],
    ["a non-hash file", "include: ci/list.yml\n", "Included file `ci/list.yml` does not have valid YAML syntax!"],
    ["a remote URL", "include: https://example.com/ci.yml\n", "Remote file `https://example.com/ci.yml` could not be fetched because of a socket error!"],
    ["remote:", "include:\n  remote: https://example.com/ci.yml\n", "Remote file `https://example.com/ci.yml` could not be fetched because of a socket error!"],
    ["template:", "include:\n  template: Auto-DevOps.gitlab-ci.yml\n", "Included file `Auto-DevOps.gitlab-ci.yml` is empty or does not exist!"],
    [
      "project:",
      "include:\n  project: group/lib\n  file: ci.yml\n",
      "Project `group/lib` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.",
    ],
    [
      "two accessors",
      "include:\n  local: a.yml\n  remote: https://x/a.yml\n",
      'Include `{"local":"a.yml","remote":"https://x/a.yml"}` needs to match exactly one accessor!',
    ],
  ])("reports %s", (_, yaml, message) => {
    expect(compilePipeline(`${yaml}job:\n  script: ls\n`, withFiles(files))).toEqual({ status: "invalid", errors: [message] });
  });

  it("reports a local include when no file reader is given", () => {
    expect(compilePipeline("include: ci/build.yml\njob:\n  script: ls\n", pipelineContext())).toEqual({
      status: "invalid",
      errors: ["Local file `ci/build.yml` does not exist!"],
    });
  });

  it("stops after 150 included files", () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 151; i++) many[`f${i}.yml`] = `j${i}:\n  script: ls\n`;
    const yaml = `include:\n${Object.keys(many)
      .map((f) => `  - ${f}\n`)
      .join("")}`;
    expect(compilePipeline(yaml, withFiles(many))).toEqual({ status: "invalid", errors: ["Maximum of 150 nested includes are allowed!"] });
  });
});
