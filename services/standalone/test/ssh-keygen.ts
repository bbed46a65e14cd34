// Real OpenSSH keys for the key and git-over-SSH tests: `ssh-keygen` writes them into a
// temporary directory and prints their fingerprints.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface GeneratedKey {
  /** The private key file (for `ssh -i`). */
  privatePath: string;
  /** "<algorithm> <base64> <comment>". */
  publicKey: string;
  /** "SHA256:…" as ssh-keygen prints it. */
  sha256: string;
  /** "aa:bb:…" (MD5, without ssh-keygen's "MD5:" prefix). */
  md5: string;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-keys-"));
let n = 0;

/** A new key pair: ed25519 by default, `["-t", "rsa", "-b", "2048"]` and the like otherwise. */
export function generateKey(type: string[] = ["-t", "ed25519"], comment = "someone@example.com"): GeneratedKey {
  const privatePath = path.join(dir, `key${n++}`);
  execFileSync("ssh-keygen", [...type, "-N", "", "-C", comment, "-q", "-f", privatePath]);
  const fingerprint = (hash: string) => execFileSync("ssh-keygen", ["-l", "-E", hash, "-f", `${privatePath}.pub`], { encoding: "utf8" }).split(" ")[1]!;
  return {
    privatePath,
    publicKey: fs.readFileSync(`${privatePath}.pub`, "utf8").trim(),
    sha256: fingerprint("sha256"),
    md5: fingerprint("md5").replace(/^MD5:/, ""),
  };
}

/** The temporary directory the keys live in (certificates are written next to them). */
export const keyDirectory = dir;
