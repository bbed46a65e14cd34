// Webhook delivery records of group and project hooks through python-gitlab (Debian's
// python3-gitlab), a client nobody here wrote: test/python/hook_events.py prints one JSON document.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";
import { type Receiver, startReceiver } from "./webhook-receiver.ts";

let s: TestStack;
let r: Receiver;
beforeAll(async () => {
  s = await startTestStack();
  r = await startReceiver();
}, 60_000);
afterAll(async () => {
  await r?.close();
  await s?.destroy();
});

describe("python-gitlab: webhook delivery records", () => {
  it("lists group and project hooks' deliveries by status and resends one of each", async () => {
    // response_status is a string in document 3 (GitLab keeps "internal error" there too).
    const out = await runPythonScript(s, "hook_events", { suffix: Date.now().toString(36), receiver: r.url });
    expect(out).toEqual({
      group_records: [["push_hooks", "200"]],
      group_by_code: 1,
      group_server_failures: [],
      group_resend: { response_status: 200 },
      group_unknown: 404,
      project_records: [["push_hooks", "200"]],
      project_by_code: 1,
      project_server_failures: [],
      project_resend: { response_status: 200 },
      project_unknown: 404,
    });
    // Each hook got the push and its resend.
    expect(r.requests.filter((q) => q.path === "/py-group")).toHaveLength(2);
    expect(r.requests.filter((q) => q.path === "/py-project")).toHaveLength(2);
  });
});
