// OpenSSH user certificates (PROTOCOL.certkeys) for group SSH certificates: the certificate the
// client presents is parsed here, its CA signature, type and validity checked, and the client's
// own signature verified with the key the certificate certifies. Ed25519 user keys; CAs of type
// ed25519 or RSA (rsa-sha2-256/512 signatures).
import { createHash, createPublicKey, verify } from "node:crypto";
import ssh2 from "ssh2";

export const ED25519_CERT = "ssh-ed25519-cert-v01@openssh.com";
const USER_CERT = 1;

export interface UserCertificate {
  /** The certified ed25519 public key (32 bytes). */
  publicKey: Buffer;
  /** The certificate's key id (`ssh-keygen -I`): who it names. */
  keyId: string;
  principals: string[];
  /** "SHA256:…" of the CA key that signed it. */
  caFingerprint: string;
}

class Reader {
  private at = 0;
  constructor(private readonly buf: Buffer) {}
  get offset(): number {
    return this.at;
  }
  take(n: number): Buffer {
    if (this.at + n > this.buf.length) throw new Error("truncated certificate");
    const out = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
  string(): Buffer {
    return this.take(this.take(4).readUInt32BE(0));
  }
  u32(): number {
    return this.take(4).readUInt32BE(0);
  }
  u64(): bigint {
    return this.take(8).readBigUInt64BE(0);
  }
  get done(): boolean {
    return this.at === this.buf.length;
  }
}

/** The SSH signature blob's algorithm and bytes. */
function splitSignature(blob: Buffer): { algorithm: string; bytes: Buffer } {
  const r = new Reader(blob);
  return { algorithm: r.string().toString("latin1"), bytes: r.string() };
}

const HASH: Record<string, string | undefined> = { "rsa-sha2-256": "sha256", "rsa-sha2-512": "sha512", "ssh-ed25519": undefined };

/**
 * A valid user certificate from its blob, or null: wrong type or format, outside its validity
 * period, with critical options (none is supported), or not signed by the CA key it names.
 */
export function parseUserCertificate(blob: Buffer, now = new Date()): UserCertificate | null {
  try {
    const r = new Reader(blob);
    if (r.string().toString("latin1") !== ED25519_CERT) return null;
    r.string(); // nonce
    const publicKey = r.string();
    r.u64(); // serial
    const type = r.u32();
    const keyId = r.string().toString("utf8");
    const principalsBlob = new Reader(r.string());
    const principals: string[] = [];
    while (!principalsBlob.done) principals.push(principalsBlob.string().toString("utf8"));
    const validAfter = r.u64();
    const validBefore = r.u64();
    const critical = r.string();
    r.string(); // extensions
    r.string(); // reserved
    const caKey = r.string();
    const signedLength = r.offset;
    const signature = splitSignature(r.string());
    if (!r.done || publicKey.length !== 32 || type !== USER_CERT || critical.length) return null;
    const seconds = BigInt(Math.floor(now.getTime() / 1000));
    if (seconds < validAfter || seconds >= validBefore) return null;
    if (!(signature.algorithm in HASH)) return null;
    const caAlgorithm = new Reader(caKey).string().toString("latin1");
    const ca = ssh2.utils.parseKey(`${caAlgorithm} ${caKey.toString("base64")}`);
    if (ca instanceof Error || ca.verify(blob.subarray(0, signedLength), signature.bytes, HASH[signature.algorithm]) !== true) return null;
    const caFingerprint = `SHA256:${createHash("sha256").update(caKey).digest("base64").replace(/=+$/, "")}`;
    return { publicKey, keyId, principals, caFingerprint };
  } catch {
    return null;
  }
}

/** Checks the client's signature (an SSH signature blob over `data`) with the certified key. */
export function verifyCertifiedSignature(cert: UserCertificate, data: Buffer, signatureBlob: Buffer): boolean {
  try {
    const { algorithm, bytes } = splitSignature(signatureBlob);
    if (algorithm !== "ssh-ed25519") return false;
    const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: cert.publicKey.toString("base64url") }, format: "jwk" });
    return verify(null, data, key, bytes);
  } catch {
    return false;
  }
}
