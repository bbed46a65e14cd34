// What a commit's signature header says about itself, without verifying it: its kind (as Gitaly
// detects it from the armor line) and, for OpenPGP, the issuer key id in the signature packet.

export type SignatureType = "PGP" | "SSH" | "X509";

const ARMOR_TYPES: Record<string, SignatureType> = {
  "-----BEGIN PGP SIGNATURE-----": "PGP",
  "-----BEGIN PGP MESSAGE-----": "PGP",
  "-----BEGIN SSH SIGNATURE-----": "SSH",
  "-----BEGIN SIGNED MESSAGE-----": "X509",
};

/** The signature's kind, or null for no signature or one in an unknown format. */
export function signatureType(signature: string): SignatureType | null {
  return ARMOR_TYPES[signature.split("\n", 1)[0]!.trim()] ?? null;
}

/** The base64 payload of an ASCII-armored block (armor headers and checksum left out). */
function dearmor(armored: string): Buffer {
  const lines = armored.split("\n").map((l) => l.trim());
  const blank = lines.indexOf("");
  const body: string[] = [];
  for (const line of lines.slice(blank === -1 ? 1 : blank + 1)) {
    if (line.startsWith("=") || line.startsWith("-----")) break;
    body.push(line);
  }
  return Buffer.from(body.join(""), "base64");
}

/** The first packet's tag and body (RFC 4880 §4.2, old and new formats; partial lengths unsupported). */
function firstPacket(buf: Buffer): { tag: number; body: Buffer } | null {
  const b = buf[0];
  if (b === undefined || !(b & 0x80)) return null;
  let pos = 1;
  let tag: number;
  let length: number;
  if (b & 0x40) {
    tag = b & 0x3f;
    const l1 = buf[pos++] ?? 0;
    if (l1 < 192) length = l1;
    else if (l1 < 224) length = ((l1 - 192) << 8) + (buf[pos++] ?? 0) + 192;
    else if (l1 === 255) {
      length = buf.readUInt32BE(pos);
      pos += 4;
    } else return null;
  } else {
    tag = (b >> 2) & 0x0f;
    const type = b & 3;
    const size = [1, 2, 4][type];
    if (size === undefined) length = buf.length - pos;
    else {
      length = buf.readUIntBE(pos, size);
      pos += size;
    }
  }
  return { tag, body: buf.subarray(pos, pos + length) };
}

/** The issuer key id among signature subpackets: Issuer (16), else Issuer Fingerprint (33). */
function issuerIn(subpackets: Buffer): string | null {
  let fingerprintKeyId: string | null = null;
  for (let pos = 0; pos < subpackets.length; ) {
    const o = subpackets[pos]!;
    let length: number;
    if (o < 192) {
      length = o;
      pos += 1;
    } else if (o < 255) {
      length = ((o - 192) << 8) + (subpackets[pos + 1] ?? 0) + 192;
      pos += 2;
    } else {
      length = subpackets.readUInt32BE(pos + 1);
      pos += 5;
    }
    const type = subpackets[pos]! & 0x7f;
    const data = subpackets.subarray(pos + 1, pos + length);
    if (type === 16 && data.length === 8) return data.toString("hex").toUpperCase();
    // A v4 fingerprint's key id is its last 8 bytes (v5/v6: the first 8).
    if (type === 33 && data.length > 8) fingerprintKeyId = (data[0] === 4 ? data.subarray(-8) : data.subarray(1, 9)).toString("hex").toUpperCase();
    pos += length;
  }
  return fingerprintKeyId;
}

/** The issuer key id (16 upper-case hex digits) of an armored OpenPGP signature, or null. */
export function pgpIssuerKeyId(armored: string): string | null {
  try {
    const packet = firstPacket(dearmor(armored));
    if (packet?.tag !== 2) return null;
    const sig = packet.body;
    const version = sig[0];
    // v3: version, 5, type, time(4), key id(8).
    if (version === 3) return sig.subarray(7, 15).toString("hex").toUpperCase();
    if (version !== 4 && version !== 5 && version !== 6) return null;
    const wide = version === 6; // v6 counts subpacket areas in 4 bytes
    let pos = 4;
    const hashedLength = wide ? sig.readUInt32BE(pos) : sig.readUInt16BE(pos);
    pos += wide ? 4 : 2;
    const hashed = sig.subarray(pos, pos + hashedLength);
    pos += hashedLength;
    const unhashedLength = wide ? sig.readUInt32BE(pos) : sig.readUInt16BE(pos);
    pos += wide ? 4 : 2;
    return issuerIn(hashed) ?? issuerIn(sig.subarray(pos, pos + unhashedLength));
  } catch {
    // A truncated or garbled packet: the signature is still there, its issuer is unknown.
    return null;
  }
}

/**
 * The bytes a commit's signature signs: the commit object without its `gpgsig` (or
 * `gpgsig-sha256`) header and that header's continuation lines, as git verify-commit feeds gpg.
 */
export function withoutSignatureHeader(object: Buffer): Buffer {
  const end = object.indexOf("\n\n");
  const headerEnd = end === -1 ? object.length : end + 1;
  const kept: Buffer[] = [];
  let skipping = false;
  for (let pos = 0; pos < headerEnd; ) {
    const nl = object.indexOf(10, pos);
    const next = nl === -1 || nl >= headerEnd ? headerEnd : nl + 1;
    const line = object.subarray(pos, next);
    if (line[0] === 0x20 && skipping) {
      pos = next;
      continue;
    }
    skipping = line.subarray(0, 7).toString("latin1") === "gpgsig " || line.subarray(0, 14).toString("latin1") === "gpgsig-sha256 ";
    if (!skipping) kept.push(line);
    pos = next;
  }
  kept.push(object.subarray(headerEnd));
  return Buffer.concat(kept);
}
