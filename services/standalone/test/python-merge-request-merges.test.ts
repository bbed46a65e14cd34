// Merging merge requests through python-gitlab (Debian's python3-gitlab), a client nobody here
// wrote: test/python/merge_request_merges.py prints one JSON document, a failing script's
// traceback becomes the test's error.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(() => s?.destroy());

const py = (script: string, vars: Record<string, string | number> = {}) => runPythonScript(s, script, vars);

describe("python-gitlab: merging merge requests", () => {
  it("merges (mr.merge()), rebases (mr.rebase()) and cancels auto-merge as GitLab answers them", async () => {
    const out = (await py("merge_request_merges", { suffix: "m1" })) as { stale_sha: { message: string } };
    expect(out).toEqual({
      stale_sha: { status: 409, message: expect.stringMatching(/^SHA does not match HEAD of source branch: [0-9a-f]{40}$/) },
      merged: { state: "merged", has_merge_commit: true, merged_by: "root" },
      main_parents: 2,
      feature_after: 404,
      rebase: { rebase_in_progress: false },
      rebase_in_progress: false,
      rebased_onto_main: true,
      cancel_without_auto_merge: { message: "Can't cancel the automatic merge", status: "error", http_status: 406 },
      clash_status: "conflict",
      clash_merge: { status: 405, message: "405 Method Not Allowed" },
    });
  });
});
