// Signature verification (GitLab's Gitlab::Gpg::Commit and Gitlab::Ssh::Signature): a commit's or
// tag's signature checked against the users' GPG keys or signing SSH keys, with GitLab's statuses.
import crypto from "node:crypto";
import type { VerifySignatureRequest__Output } from "@quarry/proto/types/identity/v1/VerifySignatureRequest";
import type { VerifySignatureResponse } from "@quarry/proto/types/identity/v1/VerifySignatureResponse";
import { createMessage, readSignature, verify } from "openpgp";
import type { IdentityDeps, PrismaClient } from "../deps.ts";
import { keyUserInfos, parsePublicKey } from "./gpg-keys.ts";
import { keyToProto } from "./ssh-keys.ts";

const UNVERIFIED: VerifySignatureResponse = { verificationStatus: "unverified" };

/** A user's verified e-mail addresses, lower-cased: the primary and the confirmed secondary ones. */
async function verifiedEmails(db: PrismaClient, userId: number): Promise<Set<string>> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
  const confirmed = await db.email.findMany({ where: { userId, confirmedAt: { not: null } }, select: { email: true } });
  return new Set([...(user ? [user.email.toLowerCase()] : []), ...confirmed.map((e) => e.email.toLowerCase())]);
}

/** The user whose primary or confirmed secondary address this is (User.find_by_any_email confirmed). */
async function userByEmail(db: PrismaClient, email: string): Promise<number | null> {
  const lower = email.toLowerCase();
  if (!lower) return null;
  const primary = await db.user.findUnique({ where: { email: lower }, select: { id: true } });
  if (primary) return primary.id;
  const secondary = await db.email.findFirst({ where: { email: lower, confirmedAt: { not: null } }, select: { userId: true } });
  return secondary?.userId ?? null;
}

/**
 * OpenPGP (Gitlab::Gpg::Commit#verification_status): the key (or subkey) the signature names;
 * unknown_key without one, unverified_key when none of its user ids' e-mails is a verified address
 * of its owner, unverified when the signature does not check out, then verified (the committer's
 * address is a verified user id of the key), same_user_different_email (another address of the
 * owner) or other_user.
 */
async function verifyPgp(deps: IdentityDeps, req: VerifySignatureRequest__Output): Promise<VerifySignatureResponse> {
  let signature: Awaited<ReturnType<typeof readSignature>>;
  try {
    signature = await readSignature({ armoredSignature: req.signature });
  } catch {
    return UNVERIFIED;
  }
  const issuer = signature.getSigningKeyIDs()[0]?.toHex().toUpperCase() ?? "";
  if (!issuer) return UNVERIFIED;
  const primary = await deps.prisma.gpgKey.findUnique({ where: { primaryKeyid: issuer } });
  const subkey = primary ? null : await deps.prisma.gpgKeySubkey.findUnique({ where: { keyid: issuer }, include: { gpgKey: true } });
  const row = primary ?? subkey?.gpgKey;
  const found = { gpgKeyId: primary?.id ?? 0, gpgKeySubkeyId: subkey?.id ?? 0, gpgKeyPrimaryKeyid: issuer };
  if (!row) return { verificationStatus: "unknown_key", gpgKeyPrimaryKeyid: issuer };
  const publicKey = await parsePublicKey(row.key);
  const infos = publicKey ? keyUserInfos(publicKey) : [];
  const verified = await verifiedEmails(deps.prisma, row.userId);
  const verifiedInfos = infos.filter((i) => verified.has(i.email));
  const info = verifiedInfos[0] ?? infos[0];
  const base = { ...found, gpgKeyUserName: info?.name ?? "", gpgKeyUserEmail: info?.email ?? "" };
  if (!verifiedInfos.length || !publicKey) return { ...base, verificationStatus: "unverified_key" };
  try {
    const message = await createMessage({ binary: new Uint8Array(req.signedData) });
    const result = await verify({ message, signature, verificationKeys: publicKey, expectSigned: true });
    await result.signatures[0]?.verified;
  } catch {
    return { ...base, verificationStatus: "unverified" };
  }
  const committer = req.committerEmail.toLowerCase();
  if (verifiedInfos.some((i) => i.email === committer)) return { ...base, verificationStatus: "verified" };
  if (verified.has(committer)) return { ...base, verificationStatus: "same_user_different_email" };
  return { ...base, verificationStatus: "other_user" };
}

/** Reads SSH wire-format strings one after another. */
class Reader {
  private pos = 0;
  constructor(private readonly buf: Buffer) {}
  string(): Buffer {
    if (this.pos + 4 > this.buf.length) throw new Error("truncated");
    const n = this.buf.readUInt32BE(this.pos);
    const end = this.pos + 4 + n;
    if (end > this.buf.length) throw new Error("truncated");
    const out = this.buf.subarray(this.pos + 4, end);
    this.pos = end;
    return out;
  }
  uint32(): number {
    if (this.pos + 4 > this.buf.length) throw new Error("truncated");
    const n = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return n;
  }
}

const sshString = (b: Buffer | string) => {
  const data = typeof b === "string" ? Buffer.from(b) : b;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  return Buffer.concat([len, data]);
};
const b64url = (b: Buffer) => b.toString("base64url");
/** An SSH mpint without its sign byte. */
const unsigned = (b: Buffer) => (b[0] === 0 ? b.subarray(1) : b);

const CURVES: Record<string, { crv: string; hash: string; size: number }> = {
  nistp256: { crv: "P-256", hash: "sha256", size: 32 },
  nistp384: { crv: "P-384", hash: "sha384", size: 48 },
  nistp521: { crv: "P-521", hash: "sha512", size: 66 },
};

/** Whether `sig` (an SSH signature blob) is `publicKey`'s signature of `data`; false for unsupported key types. */
export function checkSshSignature(publicKey: Buffer, data: Buffer, sig: Buffer): boolean {
  const key = new Reader(publicKey);
  const type = key.string().toString();
  const s = new Reader(sig);
  const sigType = s.string().toString();
  const sigBytes = s.string();
  if (type === "ssh-ed25519" && sigType === "ssh-ed25519") {
    const jwk = { kty: "OKP", crv: "Ed25519", x: b64url(key.string()) };
    return crypto.verify(null, data, { key: jwk, format: "jwk" }, sigBytes);
  }
  if (type === "ssh-rsa" && (sigType === "rsa-sha2-256" || sigType === "rsa-sha2-512")) {
    const e = unsigned(key.string());
    const n = unsigned(key.string());
    const jwk = { kty: "RSA", n: b64url(n), e: b64url(e) };
    return crypto.verify(sigType === "rsa-sha2-256" ? "sha256" : "sha512", data, { key: jwk, format: "jwk" }, sigBytes);
  }
  if (type.startsWith("ecdsa-sha2-") && sigType === type) {
    const curve = CURVES[key.string().toString()];
    const point = key.string();
    if (!curve || point[0] !== 4) return false;
    const half = (point.length - 1) / 2;
    const jwk = { kty: "EC", crv: curve.crv, x: b64url(point.subarray(1, 1 + half)), y: b64url(point.subarray(1 + half)) };
    const rs = new Reader(sigBytes);
    const pad = (b: Buffer) => Buffer.concat([Buffer.alloc(Math.max(0, curve.size - b.length)), b]).subarray(-curve.size);
    const p1363 = Buffer.concat([pad(unsigned(rs.string())), pad(unsigned(rs.string()))]);
    return crypto.verify(curve.hash, data, { key: jwk, format: "jwk", dsaEncoding: "ieee-p1363" }, p1363);
  }
  return false;
}

/** An armored SSHSIG's parts (PROTOCOL.sshsig), or null when it is not one. */
export function parseSshSignature(armored: string) {
  const lines = armored.trim().split("\n");
  if (lines[0]?.trim() !== "-----BEGIN SSH SIGNATURE-----" || lines.at(-1)?.trim() !== "-----END SSH SIGNATURE-----") return null;
  try {
    const blob = Buffer.from(lines.slice(1, -1).join("").trim(), "base64");
    if (blob.subarray(0, 6).toString() !== "SSHSIG") return null;
    const r = new Reader(blob.subarray(6));
    const version = r.uint32();
    if (version !== 1) return null;
    return { publicKey: r.string(), namespace: r.string().toString(), reserved: r.string(), hashAlgorithm: r.string().toString(), signature: r.string() };
  } catch {
    return null;
  }
}

/** Whether an SSHSIG of namespace "git" checks out for `data`. */
function validSshSignature(sig: NonNullable<ReturnType<typeof parseSshSignature>>, data: Buffer): boolean {
  if (sig.namespace !== "git" || (sig.hashAlgorithm !== "sha256" && sig.hashAlgorithm !== "sha512")) return false;
  const digest = crypto.createHash(sig.hashAlgorithm).update(data).digest();
  const signed = Buffer.concat([Buffer.from("SSHSIG"), sshString("git"), sshString(sig.reserved), sshString(sig.hashAlgorithm), sshString(digest)]);
  try {
    return checkSshSignature(sig.publicKey, signed, sig.signature);
  } catch {
    return false;
  }
}

/**
 * SSH (Gitlab::Ssh::Signature#verification_status): unverified unless the signature checks out
 * (namespace "git"), unknown_key unless a user's signing key (auth_and_signing or signing) made
 * it, other_user unless the committer's e-mail is a verified address of the key's owner.
 */
async function verifySsh(deps: IdentityDeps, req: VerifySignatureRequest__Output): Promise<VerifySignatureResponse> {
  const sig = parseSshSignature(req.signature);
  if (!sig || !validSshSignature(sig, Buffer.from(req.signedData))) return UNVERIFIED;
  const fingerprint = crypto.createHash("sha256").update(sig.publicKey).digest("base64").replace(/=+$/, "");
  const key = await deps.prisma.key.findFirst({
    where: { fingerprintSha256: fingerprint, type: "Key", usageType: { in: ["signing", "auth_and_signing"] } },
    include: { user: true },
  });
  if (!key?.userId) return { verificationStatus: "unknown_key" };
  const committer = await userByEmail(deps.prisma, req.committerEmail);
  const sshKey = keyToProto(key);
  if (committer !== key.userId) return { verificationStatus: "other_user", sshKey };
  return { verificationStatus: "verified", sshKey };
}

export const verifySignature =
  (deps: IdentityDeps) =>
  async (req: VerifySignatureRequest__Output): Promise<VerifySignatureResponse> => {
    if (req.signatureType === "PGP") return verifyPgp(deps, req);
    if (req.signatureType === "SSH") return verifySsh(deps, req);
    return UNVERIFIED;
  };
