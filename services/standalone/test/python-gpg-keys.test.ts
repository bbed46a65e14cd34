// GPG keys and a GPG-signed commit's verification through python-gitlab (Debian's python3-gitlab):
// test/python/gpg_keys.py.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitEnv, runCli } from "./git-cli.ts";
import { gpgKeyring, type GpgKeyring } from "./gpg.ts";
import { createUserWithToken, jsonBody, startTestStack, type TestStack } from "./helpers.ts";
import { runPythonScript } from "./python-runner.ts";

let s: TestStack;
let home: string;
let keyring: GpgKeyring;

beforeAll(async () => {
  s = await startTestStack();
  home = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-pygpg-"));
  keyring = gpgKeyring();
}, 60_000);
afterAll(async () => {
  keyring?.destroy();
  await s?.destroy();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

async function git(cwd: string, env: Record<string, string>, ...args: string[]): Promise<string> {
  const r = await runCli("git", ["-c", "credential.helper=", ...args], cwd, gitEnv(home, { GNUPGHOME: keyring.home, ...env }));
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout.trim();
}

describe("python-gitlab GPG keys", () => {
  it("manages the caller's and (as administrator) a user's GPG keys; a signed commit is verified while the key is there", async () => {
    const u = await createUserWithToken(s);
    const other = await createUserWithToken(s);
    const email = `${u.username}@example.com`;
    const k = keyring.newKey("Py Signer", email);
    const project = await jsonBody(
      await s.api("/projects", { method: "POST", json: { name: `py-signed-${u.username}`, initialize_with_readme: true }, token: u.token }),
      201,
    );
    const remote = new URL(`${s.url}/${project.path_with_namespace}.git`);
    remote.username = u.username;
    remote.password = u.token;
    const dir = path.join(home, "repo");
    await git(home, {}, "clone", remote.toString(), dir);
    await git(dir, { GIT_COMMITTER_EMAIL: email }, "-c", `user.signingkey=${k.fingerprint}`, "commit", "--allow-empty", "-S", "-m", "Signed");
    const sha = await git(dir, {}, "rev-parse", "HEAD");
    await git(dir, {}, "push", "origin", "main");

    expect(await runPythonScript(s, "gpg_keys", { user_token: u.token, public_key: k.publicKey, project_id: project.id, sha, other_id: other.id })).toEqual({
      created: [true, true, true],
      listed: true,
      got: true,
      signature: { signature_type: "PGP", verification_status: "verified", gpg_key_primary_keyid: k.keyid, gpg_key_user_email: email },
      signature_key_id: true,
      duplicate: [400, { key: ["has already been taken"] }],
      after_delete: [],
      signature_after_delete: "unknown_key",
      user_keys: true,
      user_key: true,
      user_after_delete: [],
    });
  });
});
