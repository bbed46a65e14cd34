// Starring and notification settings through python-gitlab (Debian's python3-gitlab), a client
// nobody here wrote: test/python/stars_notifications.py prints one JSON document, a failing
// script's traceback becomes the test's error.
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
