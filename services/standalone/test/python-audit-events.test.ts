// Audit events through python-gitlab (Debian's python3-gitlab, a client nobody here wrote):
// test/python/audit_events.py prints one JSON document.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(() => s?.destroy());

describe("python-gitlab: audit events", () => {
  it("lists and gets instance, group and project audit events with their access rules", async () => {
    const suffix = Date.now().toString(36);
    expect(await runPythonScript(s, "audit_events", { suffix })).toEqual({
      group: [
        ["member_created", "Group", "user_access", "Developer"],
        ["member_created", "Group", "user_access", "Owner"],
        ["group_created", "Group", "group", null],
      ],
      group_get: true,
      group_dev: [],
      group_dev_get: 403,
      project: [
        ["member_created", `py-audit-${suffix}/site`],
        ["project_created", `py-audit-${suffix}/site`],
      ],
      project_get: "member_created",
      instance: true,
      instance_get: true,
      instance_future: [],
      keyset: true,
      instance_owner: 403,
    });
  });
});
