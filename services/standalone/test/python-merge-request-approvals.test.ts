// Merge request approvals and a project's merge settings through python-gitlab (Debian's
// python3-gitlab), a client nobody here wrote: test/python/merge_request_approvals.py prints one
// JSON document, a failing script's traceback becomes the test's error.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(() => s?.destroy());

const py = (script: string, vars: Record<string, string | number> = {}) => runPythonScript(s, script, vars);

describe("python-gitlab: merge settings and approvals", () => {
  it("saves merge settings (project.save()) and approval settings (project.approvals); approves merge requests (mr.approve(), mr.approvals, mr.approval_state, mr.unapprove())", async () => {
    expect(await py("merge_request_approvals", { suffix: "a1" })).toEqual({
      settings: { merge_method: "ff", squash_option: "never", only_allow_merge_if_pipeline_succeeds: true, remove_source_branch_after_merge: true },
      bad_method: { status: 400, message: "merge_method does not have a valid value" },
      config: { approvals_before_merge: 0, reset_approvals_on_push: true, merge_requests_author_approval: false },
      config_saved: { approvals_before_merge: 2, reset_approvals_on_push: false, merge_requests_disable_committers_approval: true },
      approvals: { approved: true, approved_by: ["pyappra1"], user_has_approved: true, approvals_left: 0 },
      approval_state: { approval_rules_overwritten: false, rules: [] },
      author_approve: 401,
      after_unapprove: false,
      unapprove_again: 404,
    });
  });
});
