// Project Markdown uploads through python-gitlab (Debian's python3-gitlab): test/python/uploads.py
// gets the URL, a token and its inputs as QUARRY_* variables and prints one JSON document.
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

describe("python-gitlab project uploads", () => {
  it("uploads with project.upload, reads by secret and id, lists and deletes", async () => {
    expect(await runPythonScript(s, "uploads", { suffix: "u1" })).toEqual({
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
