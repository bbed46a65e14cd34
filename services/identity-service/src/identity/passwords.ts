import { randomBytes, scrypt as scryptCb, timingSafeEqual, createHash } from "node:crypto";
import { promisify } from "node:util";

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number) => Promise<Buffer>;

/** Salted scrypt digest for passwords: "scrypt$<salt b64>$<hash b64>". */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString("base64")}$${hash.toString("base64")}`;
}

export async function verifyPassword(password: string, digest: string): Promise<boolean> {
  const [kind, salt, hash] = digest.split("$");
  if (kind !== "scrypt" || !salt || !hash) return false;
  const candidate = await scrypt(password, Buffer.from(salt, "base64"), 32);
  return timingSafeEqual(candidate, Buffer.from(hash, "base64"));
}

/** Tokens are high-entropy, so a plain SHA-256 digest is enough (and allows an indexed lookup). */
export function tokenDigest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A new personal access token in GitLab's format (`glpat-` prefix). */
export function newToken(): string {
  return `glpat-${randomBytes(20).toString("base64url")}`;
}
