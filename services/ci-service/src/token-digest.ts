import { createHash } from "node:crypto";

/**
 * Runner and job tokens are high-entropy, so a plain SHA-256 digest suffices and allows an
 * indexed lookup; only digests are stored.
 */
export const tokenDigest = (token: string): string => createHash("sha256").update(token).digest("hex");
