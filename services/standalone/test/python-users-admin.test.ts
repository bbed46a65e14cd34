// Users administration through python-gitlab (Debian's python3-gitlab), a client nobody here
// wrote: test/python/users_admin.py prints one JSON document.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(() => s?.destroy());

describe("python-gitlab: users administration", () => {
  it("lists with filters, changes states, makes impersonation tokens, keeps custom attributes and lists memberships", async () => {
    const suffix = Date.now().toString(36);
    expect(await runPythonScript(s, "users_admin", { suffix })).toEqual({
      search: [`pyalice${suffix}`],
      external: [`pybob${suffix}`],
      exclude_external: [`pyalice${suffix}`],
      ordered: [`pyalice${suffix}`, `pybob${suffix}`],
      created_by: "root",
      block: true,
      state_after_block: "blocked",
      blocked_list: [`pyalice${suffix}`],
      // GitLab answers null for a user already blocked; python-gitlab passes it on.
      block_again: null,
      unblock: true,
      deactivate: [403, "The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated"],
      ban: true,
      ban_again: [403, "You cannot ban banned users."],
      unban: true,
      impersonation: [true, true, ["api", "read_user"]],
      acts_as: true,
      tokens: ["py-imp"],
      tokens_after_revoke: [],
      attribute: "red",
      attributes: ["blocked_by", "team", "unblocked_by"],
      filtered: [`pyalice${suffix}`],
      attributes_after_delete: ["blocked_by", "unblocked_by"],
      memberships: [[`py-mem-${suffix}`, "Namespace", 30]],
    });
  });
});
