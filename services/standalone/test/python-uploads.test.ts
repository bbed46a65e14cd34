// Project Markdown uploads through python-gitlab (Debian's python3-gitlab): test/python/uploads.py
// gets the URL, a token and its inputs as QUARRY_* variables and prints one JSON document.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";

const run = promisify(execFile);
// Debian's python3-gitlab lives in the system interpreter (a python3 earlier on PATH may lack it).
const PYTHON = "/usr/bin/python3";
const SCRIPT = path.join(import.meta.dirname, "python", "uploads.py");

let s: TestStack;

beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(async () => {
  await s?.destroy();
});

describe("python-gitlab project uploads", () => {
  it("uploads with project.upload, reads by secret and id, lists and deletes", async () => {
    const env = { ...process.env, QUARRY_URL: s.url, QUARRY_TOKEN: s.rootToken, QUARRY_SUFFIX: "u1" };
    let stdout: string;
    try {
      ({ stdout } = await run(PYTHON, [SCRIPT], { env, cwd: path.dirname(SCRIPT), maxBuffer: 16 * 1024 * 1024 }));
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      throw new Error(`uploads.py failed:\n${e.stderr || e.message}`);
    }
    expect(JSON.parse(stdout)).toEqual({
      // python-gitlab keeps only these of GitLab's answer.
      keys: ["alt", "markdown", "url"],
      markdown_is_link: true,
      image_markdown: true,
      by_secret: "hello from python",
      by_id: "hello from python",
      listed: ["pic.png", "name.txt"],
      after_delete: ["name.txt"],
      no_data: "No file contents or path specified",
    });
  });
});
