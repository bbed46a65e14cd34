// Group SSH certificates through python-gitlab (Debian's python3-gitlab), a client nobody here
// wrote: test/python/ssh_certificates.py prints one JSON document.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";
import { generateKey } from "./ssh-keygen.ts";

let s: TestStack;
beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(() => s?.destroy());

describe("python-gitlab: group SSH certificates", () => {
  it("adds, lists and deletes a group's CAs, with GitLab's refusals", async () => {
    const ca = generateKey();
    expect(await runPythonScript(s, "ssh_certificates", { suffix: Date.now().toString(36), ca_key: ca.publicKey })).toEqual({
      created: { title: "corp CA", key: ca.publicKey },
      listed: true,
      duplicate: [422, "Validation failed: Fingerprint must be unique. This CA has already been configured for this namespace."],
      missing: [400, "key is missing, title is missing"],
      subgroup: [403, "403 Forbidden - Group"],
      after_delete: [],
      delete_again: [404, "404 SSH Certificate Not Found"],
    });
  });
});
