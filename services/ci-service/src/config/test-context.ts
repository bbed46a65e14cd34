import type { PipelineContext } from "./types.ts";

/** A branch push pipeline on `main`, the default branch; tests override what they exercise. */
export function pipelineContext(overrides: Partial<PipelineContext> = {}): PipelineContext {
  return {
    ref: "main",
    tag: false,
    sha: "0123456789abcdef0123456789abcdef01234567",
    source: "push",
    defaultBranch: "main",
    variables: {},
    projectPath: "group/project",
    ...overrides,
  };
}
