// Merge request lists through python-gitlab (Debian's python3-gitlab): test/python/merge_request_lists.py
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

describe("python-gitlab merge request lists", () => {
  it("lists, filters and orders merge requests of a project, a group and the instance", async () => {
    expect(await runPythonScript(s, "merge_request_lists", { suffix: "l1" })).toEqual({
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
