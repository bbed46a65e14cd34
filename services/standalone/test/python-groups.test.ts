// Groups administration through python-gitlab (Debian's python3-gitlab), a client nobody here
// wrote: test/python/groups_admin.py prints one JSON document.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(() => s?.destroy());

describe("python-gitlab: groups administration", () => {
  it("lists with filters and keyset pages, reads descendants, transfers groups and projects", async () => {
    const suffix = Date.now().toString(36);
    expect(await runPythonScript(s, "groups_admin", { suffix })).toEqual({
      list: ["leaf", "mid", `py-other-${suffix}`, `py-top-${suffix}`],
      top_level: [`py-top-${suffix}`],
      statistics: [
        "job_artifacts_size",
        "lfs_objects_size",
        "packages_size",
        "pipeline_artifacts_size",
        "repository_size",
        "snippets_size",
        "storage_size",
        "uploads_size",
        "wiki_size",
      ],
      // Name order: "py leaf", "py mid", "py other", "py top", two per keyset page.
      keyset: ["leaf", "mid", `py-other-${suffix}`, `py-top-${suffix}`],
      without_projects: false,
      with_projects: true,
      descendants: ["leaf", "mid"],
      transferred: `py-other-${suffix}/mid`,
      transfer_again: [400, "Transfer failed: Group is already associated to the parent group."],
      to_top: "mid",
      project_moved: `py-top-${suffix}/pymove${suffix}`,
      project_moved_by_path: `py-other-${suffix}/pymove${suffix}`,
      project_again: [400, 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}'],
    });
  });
});
