// Drives the merge request API with python-gitlab (Debian's python3-gitlab), as
// python-gitlab.test.ts does for the other resources: test/python/merge_requests.py prints one
// JSON document; a failing script's traceback becomes the test's error.
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
afterAll(async () => {
  await s?.destroy();
});

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
