// Error tracking through python-gitlab (Debian's python3-gitlab 3.12 has no manager for it, so
// test/python/error_tracking.py uses gl.http_*), and a Sentry store request from Python.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";

const run = promisify(execFile);
const PYTHON = "/usr/bin/python3";
const SCRIPT = path.join(import.meta.dirname, "python", "error_tracking.py");

let s: TestStack;

beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(async () => {
  await s?.destroy();
});

describe("python-gitlab error tracking", () => {
  it("configures settings and keys, reports through the DSN's store endpoint and lists the error", async () => {
    const env = { ...process.env, QUARRY_URL: s.url, QUARRY_TOKEN: s.rootToken, QUARRY_SUFFIX: "e1" };
    let stdout: string;
    try {
      ({ stdout } = await run(PYTHON, [SCRIPT], { env, cwd: path.dirname(SCRIPT) }));
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      throw new Error(`error_tracking.py failed:\n${e.stderr || e.message}`);
    }
    expect(JSON.parse(stdout)).toEqual({
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
