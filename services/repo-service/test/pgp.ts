// Hand-built OpenPGP signature packets (RFC 4880) for tests that need a PGP-signed commit without gpg.

export const KEY_ID = "8254AAB3FBD54AC9";
export const FINGERPRINT = `0123456789ABCDEF0123${KEY_ID}`;

/** A signature subpacket: one-octet length, type, data. */
export const subpacket = (type: number, data: Buffer) => Buffer.concat([Buffer.from([data.length + 1, type]), data]);
export const creationTime = subpacket(2, Buffer.from([0x65, 0x00, 0x00, 0x00]));
export const issuer = subpacket(16, Buffer.from(KEY_ID, "hex"));
export const issuerFingerprint = subpacket(33, Buffer.concat([Buffer.from([4]), Buffer.from(FINGERPRINT, "hex")]));

/** A v4 signature packet body with the given subpacket areas (the MPI is a stub). */
export function v4Signature(hashed: Buffer, unhashed: Buffer): Buffer {
  const len = (b: Buffer) => Buffer.from([b.length >> 8, b.length & 0xff]);
  return Buffer.concat([Buffer.from([4, 0x00, 1, 8]), len(hashed), hashed, len(unhashed), unhashed, Buffer.from([0xab, 0xcd, 0x00, 0x08, 0xff])]);
}

/** New-format packet header (tag 2, one-octet length). */
export const newFormat = (body: Buffer) => Buffer.concat([Buffer.from([0xc2, body.length]), body]);
/** Old-format packet header (tag 2, one-octet length). */
export const oldFormat = (body: Buffer) => Buffer.concat([Buffer.from([0x88, body.length]), body]);

/** ASCII armor with an armor header and a (fake) checksum line. */
export function armor(packet: Buffer): string {
  return `-----BEGIN PGP SIGNATURE-----\nComment: test\n\n${packet.toString("base64").replace(/(.{64})/g, "$1\n")}\n=AbCd\n-----END PGP SIGNATURE-----`;
}

/** An armored signature issued by KEY_ID. */
export const pgpSignature = () => armor(newFormat(v4Signature(creationTime, issuer)));
