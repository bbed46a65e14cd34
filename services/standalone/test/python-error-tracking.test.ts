// Error tracking through python-gitlab (Debian's python3-gitlab 3.12 has no manager for it, so
// test/python/error_tracking.py uses gl.http_*), and a Sentry store request from Python.
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

describe("python-gitlab error tracking", () => {
  it("configures settings and keys, reports through the DSN's store endpoint and lists the error", async () => {
    expect(await runPythonScript(s, "error_tracking", { suffix: "e1" })).toEqual({
      before: [404, "404 Error Tracking Setting Not Found"],
      put: { active: true, project_name: null, tracker_external_url: null, api_url: null, integrated: true },
      patch: { active: true, project_name: null, tracker_external_url: null, api_url: null, integrated: true },
      key_keys: ["active", "id", "public_key", "tracker_dsn"],
      listed: [true],
      store_status: 200,
      errors: [["raised from python", 1, "python"]],
      after_delete: 0,
      refused: [404, { message: "404 Not Found" }],
    });
  });
});
