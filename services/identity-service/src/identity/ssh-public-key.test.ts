import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseSshPublicKey, validateKey } from "./ssh-public-key.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-sshkey-"));
let n = 0;
/** A key from the real ssh-keygen, with the fingerprints it prints. */
function keygen(...type: string[]) {
  const file = path.join(dir, `k${n++}`);
  execFileSync("ssh-keygen", [...type, "-N", "", "-C", "c", "-q", "-f", file]);
  const fp = (hash: string) => execFileSync("ssh-keygen", ["-l", "-E", hash, "-f", `${file}.pub`], { encoding: "utf8" }).split(" ")[1];
  return { text: fs.readFileSync(`${file}.pub`, "utf8").trim(), sha256: fp("sha256"), md5: fp("md5")!.replace("MD5:", "") };
}

/** An SSH wire-format string. */
const wire = (b: Buffer) => Buffer.concat([u32(b.length), b]);
const u32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v);
  return b;
};

describe("parseSshPublicKey", () => {
  it.each([
    [["-t", "ed25519"], "ed25519", 256],
    [["-t", "ecdsa", "-b", "256"], "ecdsa", 256],
    [["-t", "ecdsa", "-b", "521"], "ecdsa", 521],
    [["-t", "rsa", "-b", "3072"], "rsa", 3072],
  ])("reads %j keys with ssh-keygen's fingerprints", (args, type, bits) => {
    const k = keygen(...args);
    expect(parseSshPublicKey(k.text)).toMatchObject({ type, bits, fingerprintSha256: k.sha256, fingerprintMd5: k.md5 });
  });

  it("refuses a blob of another algorithm, trailing bytes and broken base64", () => {
    const ed = keygen("-t", "ed25519").text.split(" ")[1]!;
    expect(parseSshPublicKey(`ecdsa-sha2-nistp256 ${ed}`)).toBeNull();
    const extra = Buffer.concat([Buffer.from(ed, "base64"), Buffer.from([0])]).toString("base64");
    expect(parseSshPublicKey(`ssh-ed25519 ${extra}`)).toBeNull();
    expect(parseSshPublicKey("ssh-ed25519 ###")).toBeNull();
    expect(parseSshPublicKey("ssh-ed25519")).toBeNull();
  });

  it("refuses RSA keys shorter than 1024 bits, which ssh-keygen will not even make", () => {
    const modulus = Buffer.concat([Buffer.from([0x00, 0xc1]), Buffer.alloc(95, 0x5a)]); // 768 bits
    const blob = Buffer.concat([wire(Buffer.from("ssh-rsa")), wire(Buffer.from([1, 0, 1])), wire(modulus)]);
    const text = `ssh-rsa ${blob.toString("base64")}`;
    expect(parseSshPublicKey(text)).toMatchObject({ type: "rsa", bits: 768 });
    expect(validateKey({ title: "t", key: text, expiresAt: null }).errors).toEqual({ key: ["must be at least 1024 bits"] });
  });

  it("answers GitLab's errors for blank titles and keys", () => {
    expect(validateKey({ title: " ", key: "", expiresAt: null }).errors).toEqual({
      title: ["can't be blank"],
      key: ["can't be blank", "type is forbidden. Must be RSA, DSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK"],
      fingerprint_sha256: ["cannot be generated"],
    });
  });
});
