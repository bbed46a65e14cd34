// Starring and notification settings through python-gitlab (Debian's python3-gitlab), a client
// nobody here wrote: test/python/stars_notifications.py prints one JSON document, a failing
// script's traceback becomes the test's error.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(() => s?.destroy());

const py = (script: string, vars: Record<string, string | number> = {}) => runPythonScript(s, script, vars);

describe("python-gitlab: starring and notification settings", () => {
  it("stars and unstars (project.star(), project.unstar(), user.starred_projects) and saves notification settings (gl/project/group.notificationsettings)", async () => {
    expect(await py("stars_notifications", { suffix: "s1" })).toEqual({
      starred: 1,
      starrers: ["root"],
      starred_projects: [true],
      // 304 Not Modified: python-gitlab raises on it, as against GitLab.
      star_again: 304,
      unstarred: 0,
      global_default: "participating",
      global_saved: "watch",
      bad_level: { status: 400, message: "level does not have a valid value" },
      project_default: "global",
      project_saved: { level: "custom", new_note: true, new_issue: null },
      group_saved: "mention",
    });
  });
});
