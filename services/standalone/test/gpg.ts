// The real gpg for the signature tests: a throwaway GNUPGHOME holding keys made on demand.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface GpgKeyring {
  /** The GNUPGHOME (for git's gpg: pass it in git's environment). */
  home: string;
  /** Runs gpg in batch mode without passphrases; answers stdout. */
  gpg(...args: string[]): string;
  /** A new ed25519 signing key: its armored public key, fingerprint and key id (upper-case hex). */
  newKey(name: string, email: string): { publicKey: string; fingerprint: string; keyid: string };
  /** Stops the keyring's gpg-agent and removes it. */
  destroy(): void;
}

export function gpgKeyring(): GpgKeyring {
  // Short: gpg-agent's socket path has a length limit.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "gpg-"));
  fs.chmodSync(home, 0o700);
  const env = { ...process.env, GNUPGHOME: home };
  const gpg = (...args: string[]) =>
    execFileSync("gpg", ["--batch", "--pinentry-mode", "loopback", "--passphrase", "", ...args], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return {
    home,
    gpg,
    newKey(name, email) {
      gpg("--quick-generate-key", `${name} <${email}>`, "ed25519", "sign", "never");
      const colons = gpg("--with-colons", "--list-keys", `<${email}>`);
      const fingerprint = colons
        .split("\n")
        .find((l) => l.startsWith("fpr:"))!
        .split(":")[9]!;
      return { publicKey: gpg("--armor", "--export", fingerprint).trim(), fingerprint, keyid: fingerprint.slice(-16) };
    },
    destroy() {
      execFileSync("gpgconf", ["--kill", "gpg-agent"], { env, stdio: "ignore" });
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}
