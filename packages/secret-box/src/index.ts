// Seals secrets that a service must read back (webhook tokens and header values, mirror
// passwords and SSH keys): unlike access tokens they cannot be stored as digests, so they are
// encrypted at rest with AES-256-GCM under a key the operator supplies.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/** Layout version: 1 = [version][12-byte IV][16-byte tag][ciphertext]. */
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Encrypts and decrypts small secrets with one key. */
export interface SecretBox {
  seal(plaintext: string): Buffer;
  /** Throws when the data was not sealed with this key or was altered. */
  open(sealed: Uint8Array): string;
  /** JSON convenience: seals `JSON.stringify(value)`. */
  sealJson(value: unknown): Buffer;
  openJson<T>(sealed: Uint8Array): T;
}

/**
 * A box keyed by `secret` (at least 32 characters; the AES key is its SHA-256, so any string of
 * enough entropy works). `context` binds ciphertexts to their use: a value sealed for one
 * column cannot be replayed into another.
 */
export function createSecretBox(secret: string, context = "quarry"): SecretBox {
  if (secret.length < 32) throw new Error("encryption key must be at least 32 characters");
  const key = createHash("sha256").update(secret).digest();
  const aad = Buffer.from(context, "utf8");
  const box: SecretBox = {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(aad);
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
    },
    open(sealed) {
      const buf = Buffer.from(sealed);
      if (buf.length < 1 + IV_BYTES + TAG_BYTES || buf[0] !== VERSION) throw new Error("not a sealed secret");
      const iv = buf.subarray(1, 1 + IV_BYTES);
      const tag = buf.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      const decipher = createDecipheriv("aes-256-gcm", key, iv);
      decipher.setAAD(aad);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(buf.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
    },
    sealJson: (value) => box.seal(JSON.stringify(value)),
    openJson: <T>(sealed: Uint8Array) => JSON.parse(box.open(sealed)) as T,
  };
  return box;
}
