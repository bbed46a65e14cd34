// Group enterprise users through python-gitlab (Debian's python3-gitlab 3.12, a client nobody here
// wrote; it has no enterprise users manager, so test/python/enterprise_users.py uses its raw HTTP calls).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(() => s?.destroy());

describe("python-gitlab: group enterprise users", () => {
  it("lists, reads, refuses and deletes enterprise users claimed by a verified domain", async () => {
    const suffix = Date.now().toString(36);
    expect(await runPythonScript(s, "enterprise_users", { suffix })).toEqual({
      domain: [`py${suffix}.example`, true],
      listed: [`pybob${suffix}`, `pyann${suffix}`],
      fields: ["email", "enterprise_group_id", "identities", "is_admin", "scim_identities"],
      search: [`pyann${suffix}`],
      one: [`pybob${suffix}`, true, []],
      admin_view: true,
      disable_2fa: [400, "400 Bad request - Two-factor authentication is not enabled for this user"],
      after_delete: [`pyann${suffix}`],
      deleted_get: [404, "404 Not found"],
      conflict: [409, "Can not remove a user who is the sole owner of a group."],
      after_hard_delete: [],
      group_gone: [],
    });
  });
});
