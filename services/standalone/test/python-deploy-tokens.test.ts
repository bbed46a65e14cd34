// Deploy tokens through python-gitlab (Debian's python3-gitlab): test/python/deploy_tokens.py.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;

beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(async () => {
  await s?.destroy();
});

describe("python-gitlab deploy tokens", () => {
  it("manages project and group deploy tokens and lists the instance's", async () => {
    const u = await createUserWithToken(s);
    expect(await runPythonScript(s, "deploy_tokens", { user_token: u.token, suffix: Date.now().toString(36) })).toEqual({
      created: ["py-ci", "py-bot", ["read_repository", "read_registry"], true, false, false],
      listed: ["py-ci"],
      got: ["py-ci", false],
      bad_scope: [400, "scopes does not have a valid value"],
      instance: true,
      instance_as_user: 403,
      after_delete: [],
      group_created: ["py-group", true, "2099-01-31T00:00:00.000Z"],
      group_listed: ["py-group"],
      group_got: "py-group",
      group_after_delete: [],
    });
  });
});
