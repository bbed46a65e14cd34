// E-mail addresses and service accounts through python-gitlab (Debian's python3-gitlab, a client
// nobody here wrote): test/python/accounts.py prints one JSON document.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(() => s?.destroy());

describe("python-gitlab: e-mail addresses and service accounts", () => {
  it("manages the caller's and (as administrator) a user's addresses, group and instance service accounts and their tokens", async () => {
    const suffix = Date.now().toString(36);
    expect(await runPythonScript(s, "accounts", { suffix })).toEqual({
      created: [`second${suffix}@example.com`, null],
      mine: [`pymail${suffix}@example.com`, `second${suffix}@example.com`],
      get: `second${suffix}@example.com`,
      taken: [400, { email: ["has already been taken"] }],
      after_delete: [`pymail${suffix}@example.com`],
      admin_added_confirmed: true,
      admin_list: [`pymail${suffix}@example.com`, `byadmin${suffix}@example.com`],
      admin_after_delete: [`pymail${suffix}@example.com`],
      sa: ["Py bot", true],
      token: ["py-tok", ["read_api"], true],
      tokens: ["py-tok"],
      tokens_after_revoke: [],
      instance: ["Service account user", true],
      instance_listed: true,
      group_list_after_delete: [],
    });
  });
});
