// Contribution events through python-gitlab (Debian's python3-gitlab, a client nobody here wrote):
// test/python/contribution_events.py prints one JSON document.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(() => s?.destroy());

describe("python-gitlab: contribution events", () => {
  it("lists the caller's, a user's and a project's events with filters, and user activities", async () => {
    const suffix = Date.now().toString(36);
    expect(await runPythonScript(s, "contribution_events", { suffix })).toEqual({
      mine: [
        ["closed", "Issue", "Py issue"],
        ["commented on", "Note", "Py issue"],
        ["opened", "Issue", "Py issue"],
        ["pushed new", null, null],
        ["created", null, null],
      ],
      push_data: { commit_count: 1, action: "created", ref_type: "branch", ref: "main", commit_title: "First commit" },
      note: ["A comment", "Issue", true],
      user_closed: [["closed", 1]],
      user_outsider: [],
      project_issues: ["opened", "closed"],
      project_outsider: 404,
      activities: true,
      activities_dev: [true, false],
      activities_admin_private: true,
    });
  });
});
