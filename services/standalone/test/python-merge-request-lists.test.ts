// Merge request lists through python-gitlab (Debian's python3-gitlab): test/python/merge_request_lists.py
// gets the URL, a token and its inputs as QUARRY_* variables and prints one JSON document.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";

const run = promisify(execFile);
// Debian's python3-gitlab lives in the system interpreter (a python3 earlier on PATH may lack it).
const PYTHON = "/usr/bin/python3";
const SCRIPT = path.join(import.meta.dirname, "python", "merge_request_lists.py");

let s: TestStack;

beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(async () => {
  await s?.destroy();
});

describe("python-gitlab merge request lists", () => {
  it("lists, filters and orders merge requests of a project, a group and the instance", async () => {
    const env = { ...process.env, QUARRY_URL: s.url, QUARRY_TOKEN: s.rootToken, QUARRY_SUFFIX: "l1" };
    let stdout: string;
    try {
      ({ stdout } = await run(PYTHON, [SCRIPT], { env, cwd: path.dirname(SCRIPT), maxBuffer: 16 * 1024 * 1024 }));
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      throw new Error(`merge_request_lists.py failed:\n${e.stderr || e.message}`);
    }
    expect(JSON.parse(stdout)).toEqual({
      listed: [2, 1],
      by_label: [1],
      drafts: ["Draft: docs"],
      iids: [1],
      by_title: [2, 1],
      simple_keys: ["created_at", "description", "id", "iid", "project_id", "state", "title", "updated_at", "web_url"],
      group: ["Draft: docs", "Fix it"],
      mine: ["Draft: docs", "Fix it"],
      all: ["Draft: docs", "Fix it"],
      bad_order: [400, "order_by does not have a valid value"],
      exclusive: [400, "author_id, author_username are mutually exclusive"],
    });
  });
});
