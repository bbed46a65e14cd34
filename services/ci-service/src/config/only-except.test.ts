import { describe, expect, it } from "vitest";
import { compilePipeline } from "./compile.ts";
import { pipelineContext } from "./test-context.ts";
import type { PipelineContext } from "./types.ts";

/** Whether a job with this only/except snippet is in the pipeline. */
function runs(snippet: string, ctx: Partial<PipelineContext>): boolean {
  const yaml = `always:\n  script: ls\n  rules: [{when: always}]\njob:\n  script: ls\n${snippet}`;
  const result = compilePipeline(yaml, pipelineContext(ctx));
  if (result.status !== "pipeline") throw new Error(JSON.stringify(result));
  return result.pipeline.jobs.some((j) => j.name === "job");
}

const branch = { ref: "main", tag: false };
const feature = { ref: "feature/x", tag: false };
const tag = { ref: "v1.2.0", tag: true };

describe("only / except", () => {
  it.each([
    ["no only/except: branches", "", branch, true],
    ["no only/except: tags", "", tag, true],
    ["no only/except: merge requests are left out", "", { ...branch, source: "merge_request_event" as const }, false],
    ["only branches on a branch", "  only: [branches]\n", branch, true],
    ["only branches on a tag", "  only: [branches]\n", tag, false],
    ["only tags on a tag", "  only: [tags]\n", tag, true],
    ["only tags on a branch", "  only: [tags]\n", branch, false],
    ["only a literal ref", "  only: [main]\n", branch, true],
    ["only another literal ref", "  only: [main]\n", feature, false],
    ["only a string", "  only: main\n", branch, true],
    ["only a regex", "  only: ['/^feature\\/.*/']\n", feature, true],
    ["only a regex, no match", "  only: ['/^release-/']\n", feature, false],
    ["only a regex with flags", "  only: ['/^FEATURE/i']\n", feature, true],
    ["only a regex against a tag", "  only: ['/^v\\d+\\.\\d+\\.\\d+$/']\n", tag, true],
    ["only a regex with RE2's inline flags", "  only: ['/(?i)^FEATURE/']\n", feature, true],
    ["only a regex that backtracking would never finish", "  only: ['/^(a+)+$/']\n", { ref: `${"a".repeat(5000)}b`, tag: false }, false],
    ["only pushes", "  only: [pushes]\n", branch, true],
    ["only pushes, web pipeline", "  only: [pushes]\n", { ...branch, source: "web" as const }, false],
    ["only web", "  only: [web]\n", { ...branch, source: "web" as const }, true],
    ["only api", "  only: [api]\n", { ...branch, source: "api" as const }, true],
    ["only triggers", "  only: [triggers]\n", { ...branch, source: "trigger" as const }, true],
    ["only schedules", "  only: [schedules]\n", { ...branch, source: "schedule" as const }, true],
    ["only merge_requests", "  only: [merge_requests]\n", { ...branch, source: "merge_request_event" as const }, true],
    ["only merge_requests on a push", "  only: [merge_requests]\n", branch, false],
    ["only a ref of this project", "  only: ['main@group/project']\n", branch, true],
    ["only a ref of another project", "  only: ['main@other/project']\n", branch, false],
    ["only refs: hash form", "  only:\n    refs: [tags]\n", tag, true],
    ["only refs: hash form, no match", "  only:\n    refs: [tags]\n", branch, false],
    ["only variables", '  only:\n    variables: [$DEPLOY == "yes"]\n', { ...branch, variables: { DEPLOY: "yes" } }, true],
    ["only variables, no match", '  only:\n    variables: [$DEPLOY == "yes"]\n', branch, false],
    ["only refs and variables must both hold", "  only:\n    refs: [tags]\n    variables: [$DEPLOY]\n", { ...branch, variables: { DEPLOY: "1" } }, false],
    ["only changes without a diff", "  only:\n    changes: [docs/**/*]\n", branch, true],
    ["only changes with a matching diff", "  only:\n    changes: ['docs/**/*']\n", { ...branch, changedPaths: ["docs/a/b.md"] }, true],
    ["only changes with another diff", "  only:\n    changes: ['docs/**/*']\n", { ...branch, changedPaths: ["src/a.ts"] }, false],
    ["except tags on a tag", "  except: [tags]\n", tag, false],
    ["except tags on a branch", "  except: [tags]\n", branch, true],
    ["except a literal ref", "  except: [main]\n", branch, false],
    ["except a regex", "  except: ['/^feature/']\n", feature, false],
    ["except keeps the default only (no merge requests)", "  except: [tags]\n", { ...branch, source: "merge_request_event" as const }, false],
    ["except: any part excludes", "  except:\n    refs: [tags]\n    variables: [$SKIP]\n", { ...branch, variables: { SKIP: "1" } }, false],
    ["only and except together", "  only: [branches]\n  except: [main]\n", feature, true],
    ["only and except together, excluded", "  only: [branches]\n  except: [main]\n", branch, false],
  ])("%s", (_, snippet, ctx, expected) => {
    expect(runs(snippet, ctx)).toBe(expected);
  });

  it("drops the default only when workflow rules are used", () => {
    const yaml = "workflow:\n  rules: [{when: always}]\njob:\n  script: ls\n";
    const result = compilePipeline(yaml, pipelineContext({ source: "merge_request_event" }));
    expect(result.status === "pipeline" && result.pipeline.jobs.map((j) => j.name)).toEqual(["job"]);
  });
});
