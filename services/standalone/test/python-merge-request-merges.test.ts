// Merging merge requests through python-gitlab (Debian's python3-gitlab), a client nobody here
// wrote: test/python/merge_request_merges.py prints one JSON document, a failing script's
// traceback becomes the test's error.
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
afterAll(() => s?.destroy());

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
