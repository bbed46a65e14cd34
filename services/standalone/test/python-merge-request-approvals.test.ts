// Merge request approvals and a project's merge settings through python-gitlab (Debian's
// python3-gitlab), a client nobody here wrote: test/python/merge_request_approvals.py prints one
// JSON document, a failing script's traceback becomes the test's error.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";

const run = promisify(execFile);
// Debian's python3-gitlab lives in the system interpreter (a python3 earlier on PATH may lack it).
const PYTHON = "/usr/bin/python3";
const SCRIPTS = path.join(import.meta.dirname, "python");

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(() => s?.destroy());

/** Runs test/python/<script>.py against the stack (asynchronously: the stack serves from this process). */
async function py(script: string, vars: Record<string, string | number> = {}): Promise<unknown> {
  const env: Record<string, string> = { ...process.env, QUARRY_URL: s.url, QUARRY_TOKEN: s.rootToken } as Record<string, string>;
  for (const [k, v] of Object.entries(vars)) env[`QUARRY_${k.toUpperCase()}`] = String(v);
  try {
    const { stdout } = await run(PYTHON, [path.join(SCRIPTS, `${script}.py`)], { env, cwd: SCRIPTS, maxBuffer: 16 * 1024 * 1024 });
    return JSON.parse(stdout);
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${script}.py failed:\n${e.stderr || e.message}`);
  }
}

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
