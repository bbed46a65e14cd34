// Project wikis through python-gitlab (Debian's python3-gitlab): test/python/wikis.py
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

describe("python-gitlab project wikis", () => {
  it("creates, gets, saves, lists and deletes wiki pages", async () => {
    expect(await runPythonScript(s, "wikis", { suffix: "w1" })).toEqual({
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
