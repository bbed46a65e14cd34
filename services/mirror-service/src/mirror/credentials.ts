// What a mirror keeps sealed in `encrypted_credentials` (AES-256-GCM via @quarry/secret-box,
// context "remote_mirrors"): the user name and password split off the URL, and the private half
// of a generated SSH key pair. Nothing here is ever returned by an RPC.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { SecretBox } from "@quarry/secret-box";

export interface MirrorCredentials {
  user?: string;
  password?: string;
  /** OpenSSH ("openssh-key-v1") private key of the mirror's ed25519 pair. */
  sshPrivateKey?: string;
}

export function openCredentials(box: SecretBox, sealed: Uint8Array | null): MirrorCredentials {
  if (!sealed) return {};
  return box.openJson<MirrorCredentials>(sealed);
}

export function sealCredentials(box: SecretBox, creds: MirrorCredentials): Uint8Array<ArrayBuffer> | null {
  const clean = Object.fromEntries(Object.entries(creds).filter(([, v]) => v !== undefined && v !== ""));
  return Object.keys(clean).length ? new Uint8Array(box.sealJson(clean)) : null;
}

const sshString = (b: Buffer | string) => {
  const body = typeof b === "string" ? Buffer.from(b, "utf8") : b;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length);
  return Buffer.concat([len, body]);
};
const uint32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

/**
 * A new ed25519 key pair: the public key as OpenSSH prints it (`ssh-ed25519 AAAA… <comment>`) and
 * the private key in OpenSSH's own unencrypted "openssh-key-v1" format, which `ssh -i` reads.
 */
export function generateSshKeyPair(comment: string): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const pub = Buffer.from(publicKey.export({ format: "jwk" }).x!, "base64url");
  const seed = Buffer.from(privateKey.export({ format: "jwk" }).d!, "base64url");
  const pubBlob = Buffer.concat([sshString("ssh-ed25519"), sshString(pub)]);
  const check = randomBytes(4).readUInt32BE();
  let priv = Buffer.concat([uint32(check), uint32(check), sshString("ssh-ed25519"), sshString(pub), sshString(Buffer.concat([seed, pub])), sshString(comment)]);
  const pad = (8 - (priv.length % 8)) % 8;
  priv = Buffer.concat([priv, Buffer.from(Array.from({ length: pad }, (_, i) => i + 1))]);
  const body = Buffer.concat([
    Buffer.from("openssh-key-v1\0", "latin1"),
    sshString("none"),
    sshString("none"),
    sshString(""),
    uint32(1),
    sshString(pubBlob),
    sshString(priv),
  ]).toString("base64");
  const lines = body.match(/.{1,70}/g) ?? [];
  return {
    publicKey: `ssh-ed25519 ${pubBlob.toString("base64")} ${comment}`,
    privateKey: ["-----BEGIN OPENSSH PRIVATE KEY-----", ...lines, "-----END OPENSSH PRIVATE KEY-----", ""].join("\n"),
  };
}
