import { describe, expect, it } from "vitest";
import { armor, creationTime, issuer, issuerFingerprint, KEY_ID, newFormat, oldFormat, v4Signature } from "../../test/pgp.ts";
import { pgpIssuerKeyId, signatureType } from "./signatures.ts";

describe("signatureType", () => {
  it("detects the kind from the armor line as Gitaly does", () => {
    expect(signatureType("-----BEGIN PGP SIGNATURE-----\n…")).toBe("PGP");
    expect(signatureType("-----BEGIN PGP MESSAGE-----\n…")).toBe("PGP");
    expect(signatureType("-----BEGIN SSH SIGNATURE-----\n…")).toBe("SSH");
    expect(signatureType("-----BEGIN SIGNED MESSAGE-----\n…")).toBe("X509");
    expect(signatureType("")).toBeNull();
    expect(signatureType("-----BEGIN SOMETHING-----\n…")).toBeNull();
  });
});

describe("pgpIssuerKeyId", () => {
  it("reads the Issuer subpacket, hashed or not", () => {
    expect(pgpIssuerKeyId(armor(newFormat(v4Signature(creationTime, issuer))))).toBe(KEY_ID);
    expect(pgpIssuerKeyId(armor(newFormat(v4Signature(Buffer.concat([creationTime, issuer]), Buffer.alloc(0)))))).toBe(KEY_ID);
  });

  it("falls back to the Issuer Fingerprint's low 8 bytes, and reads old-format packets", () => {
    expect(pgpIssuerKeyId(armor(newFormat(v4Signature(Buffer.concat([creationTime, issuerFingerprint]), Buffer.alloc(0)))))).toBe(KEY_ID);
    expect(pgpIssuerKeyId(armor(oldFormat(v4Signature(creationTime, issuer))))).toBe(KEY_ID);
  });

  it("reads a v3 signature's key id", () => {
    const v3 = Buffer.concat([Buffer.from([3, 5, 0x00, 0x65, 0, 0, 0]), Buffer.from(KEY_ID, "hex"), Buffer.from([1, 8, 0xab, 0xcd])]);
    expect(pgpIssuerKeyId(armor(newFormat(v3)))).toBe(KEY_ID);
  });

  it("answers null for a signature without an issuer, another packet or garbage", () => {
    expect(pgpIssuerKeyId(armor(newFormat(v4Signature(creationTime, Buffer.alloc(0)))))).toBeNull();
    expect(pgpIssuerKeyId(armor(Buffer.from([0xc6, 1, 0])))).toBeNull();
    expect(pgpIssuerKeyId("-----BEGIN PGP SIGNATURE-----\n\n!!!!\n-----END PGP SIGNATURE-----")).toBeNull();
    expect(pgpIssuerKeyId(armor(newFormat(v4Signature(creationTime, issuer)).subarray(0, 8)))).toBeNull();
  });
});
