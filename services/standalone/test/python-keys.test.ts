// SSH keys and deploy keys through python-gitlab (Debian's python3-gitlab): test/python/keys.py.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";
import { generateKey } from "./ssh-keygen.ts";

let s: TestStack;

beforeAll(async () => {
  s = await startTestStack();
}, 60_000);
afterAll(async () => {
  await s?.destroy();
});

describe("python-gitlab SSH and deploy keys", () => {
  it("manages user keys, finds keys by fingerprint and manages deploy keys", async () => {
    const u = await createUserWithToken(s);
    const [k1, k2, k3] = [generateKey(), generateKey(), generateKey()];
    expect(
      await runPythonScript(s, "keys", {
        user_token: u.token,
        key1: k1.publicKey,
        key2: k2.publicKey,
        key2_sha256: k2.sha256,
        key3: k3.publicKey,
        suffix: Date.now().toString(36),
      }),
    ).toEqual({
      created: { title: "py-laptop", usage_type: "auth_and_signing", has_key: true },
      listed: ["py-laptop"],
      got: "py-laptop",
      duplicate: [400, { fingerprint_sha256: ["has already been taken"] }],
      user_keys: ["py-laptop", "py-admin"],
      by_fingerprint: [true, true],
      by_id: "py-laptop",
      after_delete: [],
      deploy_created: ["py-deploy", true],
      deploy_after_save: false,
      enabled_in_b: [true],
      instance: true,
      a_after_delete: 0,
    });
  });
});
