import { describe, expect, it } from "vitest";
import { predefinedVariables, refSlug } from "./predefined.ts";
import { pipelineContext } from "./test-context.ts";

describe("predefinedVariables", () => {
  it("describes a branch pipeline", () => {
    expect(predefinedVariables(pipelineContext({ ref: "Feature/Login" }))).toEqual({
      CI: "true",
      GITLAB_CI: "true",
      CI_COMMIT_REF_NAME: "Feature/Login",
      CI_COMMIT_REF_SLUG: "feature-login",
      CI_COMMIT_BRANCH: "Feature/Login",
      CI_COMMIT_SHA: "0123456789abcdef0123456789abcdef01234567",
      CI_COMMIT_SHORT_SHA: "01234567",
      CI_PIPELINE_SOURCE: "push",
      CI_DEFAULT_BRANCH: "main",
      CI_PROJECT_PATH: "group/project",
    });
  });

  it("sets CI_COMMIT_TAG instead of CI_COMMIT_BRANCH for tags", () => {
    const vars = predefinedVariables(pipelineContext({ ref: "v1.0", tag: true }));
    expect(vars.CI_COMMIT_TAG).toBe("v1.0");
    expect(vars).not.toHaveProperty("CI_COMMIT_BRANCH");
  });

  it("sets neither for merge request pipelines", () => {
    const vars = predefinedVariables(pipelineContext({ source: "merge_request_event" }));
    expect(vars).not.toHaveProperty("CI_COMMIT_BRANCH");
    expect(vars).not.toHaveProperty("CI_COMMIT_TAG");
  });
});

describe("refSlug", () => {
  it("lowercases, replaces non-alphanumerics, trims dashes and keeps 63 characters", () => {
    expect(refSlug("-Release/1.2_x-")).toBe("release-1-2-x");
    expect(refSlug("a".repeat(70))).toHaveLength(63);
  });
});
