// Drives the merge request API with python-gitlab (Debian's python3-gitlab), as
// python-gitlab.test.ts does for the other resources: test/python/merge_requests.py prints one
// JSON document; a failing script's traceback becomes the test's error.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;

beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(async () => {
  await s?.destroy();
});

const py = (script: string, vars: Record<string, string | number> = {}) => runPythonScript(s, script, vars);

describe("python-gitlab", () => {
  it("manages merge requests", async () => {
    expect(await py("merge_requests", { suffix: "m1" })).toEqual({
      created: { iid: 1, state: "opened", labels: ["backend"], draft: false, merge_status: "can_be_merged", changes_count: "1", has_diff_refs: true },
      edited: ["Draft: Feature", true, "draft_status", ["backend", "ui"]],
      versions: [["1", "collected"]],
      version_files: ["feature.txt"],
      changes: ["feature.txt"],
      commits: ["Add feature"],
      participants: ["root"],
      closes: [1],
      closed: "closed",
      reopened: "opened",
      duplicate: [409, ["Another open merge request already exists for this source branch: !1"]],
      unknown: [404, "404 Not found"],
      after_delete: 404,
    });
  });
});
