// OpenSSH public keys as GitLab's Gitlab::SSHPublicKey reads them: "<algorithm> <base64 blob>
// [comment]", the blob in the SSH wire format (RFC 4253 §6.6, RFC 5656, RFC 8709, OpenSSH's
// PROTOCOL.u2f for the security-key types). Parsed by hand with node:crypto for the fingerprints.
import { createHash } from "node:crypto";

/** Gitlab::SSHPublicKey's technology names, by the algorithm that starts a key. */
const ALGORITHMS: Record<string, string> = {
  "ssh-rsa": "rsa",
  "ssh-dss": "dsa",
  "ecdsa-sha2-nistp256": "ecdsa",
  "ecdsa-sha2-nistp384": "ecdsa",
  "ecdsa-sha2-nistp521": "ecdsa",
  "ssh-ed25519": "ed25519",
  "sk-ecdsa-sha2-nistp256@openssh.com": "ecdsa_sk",
  "sk-ssh-ed25519@openssh.com": "ed25519_sk",
};

/** ApplicationSetting's allowed key types, in GitLab's order (its forbidden-type message lists them). */
export const KEY_TYPES = ["rsa", "dsa", "ecdsa", "ed25519", "ecdsa_sk", "ed25519_sk"] as const;

/** Smallest RSA and DSA keys taken (OpenSSH refuses shorter RSA keys too). */
export const MIN_RSA_BITS = 1024;

export interface SshPublicKey {
  /** The algorithm name ("ssh-ed25519"). */
  algorithm: string;
  /** rsa, dsa, ecdsa, ed25519, ecdsa_sk, ed25519_sk. */
  type: string;
  bits: number;
  /** The decoded key blob. */
  blob: Buffer;
  /** "SHA256:<base64 without padding>". */
  fingerprintSha256: string;
  /** "aa:bb:…". */
  fingerprintMd5: string;
}

/** Reads the SSH wire format's length-prefixed strings. */
class WireReader {
  private at = 0;
  constructor(private readonly buf: Buffer) {}
  string(): Buffer {
    if (this.at + 4 > this.buf.length) throw new Error("truncated");
    const len = this.buf.readUInt32BE(this.at);
    this.at += 4;
    if (this.at + len > this.buf.length) throw new Error("truncated");
    const out = this.buf.subarray(this.at, this.at + len);
    this.at += len;
    return out;
  }
  get done(): boolean {
    return this.at === this.buf.length;
  }
}

/** Significant bits of an SSH mpint. */
function mpintBits(n: Buffer): number {
  let i = 0;
  while (i < n.length && n[i] === 0) i++;
  if (i === n.length) return 0;
  return (n.length - i - 1) * 8 + (32 - Math.clz32(n[i]!));
}

const CURVE_BITS: Record<string, number> = { nistp256: 256, nistp384: 384, nistp521: 521 };

/** The key's blob checked against its algorithm; null when it is not a well-formed key. */
function inspectBlob(algorithm: string, blob: Buffer): number | null {
  try {
    const r = new WireReader(blob);
    if (r.string().toString("latin1") !== algorithm) return null;
    let bits: number;
    switch (algorithm) {
      case "ssh-rsa": {
        const e = r.string();
        const n = r.string();
        if (!mpintBits(e)) return null;
        bits = mpintBits(n);
        break;
      }
      case "ssh-dss": {
        const p = r.string();
        r.string();
        r.string();
        r.string();
        bits = mpintBits(p);
        break;
      }
      case "ssh-ed25519":
      case "sk-ssh-ed25519@openssh.com": {
        if (r.string().length !== 32) return null;
        if (algorithm.startsWith("sk-")) r.string();
        bits = 256;
        break;
      }
      default: {
        // ecdsa-sha2-<curve> and sk-ecdsa-sha2-nistp256@openssh.com: curve name, then the point.
        const curve = r.string().toString("latin1");
        const expected = algorithm.startsWith("sk-") ? "nistp256" : algorithm.slice("ecdsa-sha2-".length);
        if (curve !== expected || !CURVE_BITS[curve]) return null;
        const point = r.string();
        const size = Math.ceil(CURVE_BITS[curve]! / 8);
        if (point.length !== 1 + 2 * size || point[0] !== 4) return null;
        if (algorithm.startsWith("sk-")) r.string();
        bits = CURVE_BITS[curve]!;
      }
    }
    return r.done ? bits : null;
  } catch {
    return null;
  }
}

/** Parses "<algorithm> <base64> [comment]"; null when it is no supported, well-formed key. */
export function parseSshPublicKey(text: string): SshPublicKey | null {
  const parts = text.trim().split(/\s+/);
  if (parts.length < 2) return null;
  const [algorithm, data] = parts as [string, string];
  const type = ALGORITHMS[algorithm];
  if (!type || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return null;
  const blob = Buffer.from(data, "base64");
  const bits = inspectBlob(algorithm, blob);
  if (bits === null) return null;
  return { algorithm, type, bits, blob, ...fingerprints(blob) };
}

/** The SHA256 and MD5 fingerprints of a key blob, as `ssh-keygen -l` prints them. */
export function fingerprints(blob: Buffer): { fingerprintSha256: string; fingerprintMd5: string } {
  const sha = createHash("sha256").update(blob).digest("base64").replace(/=+$/, "");
  const md5 = createHash("md5").update(blob).digest("hex").match(/../g)!.join(":");
  return { fingerprintSha256: `SHA256:${sha}`, fingerprintMd5: md5 };
}

/** Algorithms a key may start with (Key's format validation). */
export function startsWithSupportedAlgorithm(text: string): boolean {
  return Object.keys(ALGORITHMS).some((a) => text.startsWith(a));
}

/** GitLab's "type is forbidden. Must be RSA, DSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK". */
export function forbiddenTypeMessage(): string {
  const names = KEY_TYPES.map((t) => t.toUpperCase());
  return `type is forbidden. Must be ${names.slice(0, -1).join(", ")}, or ${names.at(-1)}`;
}

/**
 * Key's validations (title, key, fingerprint, restrictions, expiry) as GitLab's
 * `{"key":[…],"fingerprint_sha256":[…]}` errors; empty when the key is acceptable.
 */
export function validateKey(
  input: { title: string; key: string; expiresAt: Date | null },
  now = new Date(),
): { errors: Record<string, string[]>; parsed: SshPublicKey | null } {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  if (!input.title.trim()) add("title", "can't be blank");
  else if (input.title.length > 255) add("title", "is too long (maximum is 255 characters)");
  const key = input.key.trim();
  if (!key) add("key", "can't be blank");
  else if (key.length > 5000) add("key", "is too long (maximum is 5000 characters)");
  else if (!startsWithSupportedAlgorithm(key)) add("key", "is invalid");
  const parsed = key ? parseSshPublicKey(key) : null;
  if (!parsed) add("fingerprint_sha256", "cannot be generated");
  if (!parsed) add("key", forbiddenTypeMessage());
  else if ((parsed.type === "rsa" || parsed.type === "dsa") && parsed.bits < MIN_RSA_BITS) add("key", `must be at least ${MIN_RSA_BITS} bits`);
  if (input.expiresAt && input.expiresAt.getTime() < now.getTime()) add("key", "has expired");
  return { errors, parsed };
}
