// Runs test/python/<script>.py (Debian's python3-gitlab, a client nobody here wrote) against a
// test stack: the script gets the URL, a token and its inputs as QUARRY_* variables and prints
// one JSON document; a failing script's traceback becomes the test's error.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import type { TestStack } from "./helpers.ts";

const run = promisify(execFile);
/** Debian's python3-gitlab lives in the system interpreter (a python3 earlier on PATH may lack it). */
export const PYTHON = "/usr/bin/python3";
export const PYTHON_SCRIPTS = path.join(import.meta.dirname, "python");

/** The script's JSON output (run asynchronously: the stack serves from this process). */
export async function runPythonScript(s: TestStack, script: string, vars: Record<string, string | number> = {}): Promise<unknown> {
  const env: Record<string, string> = { ...process.env, QUARRY_URL: s.url, QUARRY_TOKEN: s.rootToken } as Record<string, string>;
  for (const [k, v] of Object.entries(vars)) env[`QUARRY_${k.toUpperCase()}`] = String(v);
  try {
    const { stdout } = await run(PYTHON, [path.join(PYTHON_SCRIPTS, `${script}.py`)], { env, cwd: PYTHON_SCRIPTS, maxBuffer: 16 * 1024 * 1024 });
    return JSON.parse(stdout);
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${script}.py failed:\n${e.stderr || e.message}`);
  }
}
