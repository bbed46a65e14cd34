// Project wikis through python-gitlab (Debian's python3-gitlab): test/python/wikis.py
// gets the URL, a token and its inputs as QUARRY_* variables and prints one JSON document.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";

const run = promisify(execFile);
// Debian's python3-gitlab lives in the system interpreter (a python3 earlier on PATH may lack it).
const PYTHON = "/usr/bin/python3";
const SCRIPT = path.join(import.meta.dirname, "python", "wikis.py");

let s: TestStack;

beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(async () => {
  await s?.destroy();
});

describe("python-gitlab project wikis", () => {
  it("creates, gets, saves, lists and deletes wiki pages", async () => {
    const env = { ...process.env, QUARRY_URL: s.url, QUARRY_TOKEN: s.rootToken, QUARRY_SUFFIX: "w1" };
    let stdout: string;
    try {
      ({ stdout } = await run(PYTHON, [SCRIPT], { env, cwd: path.dirname(SCRIPT), maxBuffer: 16 * 1024 * 1024 }));
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      throw new Error(`wikis.py failed:\n${e.stderr || e.message}`);
    }
    expect(JSON.parse(stdout)).toEqual({
      created: { slug: "Python-Page", title: "Python Page", format: "markdown", content: "first" },
      got: "first",
      saved: "second",
      listed: ["Python-Page", "docs/Nested"],
      with_content: ["n", "second"],
      after_delete: ["docs/Nested"],
      missing: [404, "404 Wiki Page Not Found"],
    });
  });
});
