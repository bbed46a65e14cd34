import { describe, expect, it } from "vitest";
import { tagEntity, tagSignatureEntity } from "./tag.ts";

const commit = {
  id: "c".repeat(40),
  shortId: "cccccccc",
  title: "T",
  message: "T\n",
  authorName: "A",
  authorEmail: "a@example.com",
  authoredDate: "2026-01-01T00:00:00+00:00",
  committerName: "A",
  committerEmail: "a@example.com",
  committedDate: "2026-01-01T00:00:00+00:00",
  parentIds: [],
  trailers: {},
  extendedTrailers: {},
};

describe("tagEntity", () => {
  it("shows lightweight tags without message and created_at, annotated ones with them", () => {
    const light = tagEntity({ name: "v1", annotated: false, message: "", target: commit.id, createdAt: "", commit }, "http://q/p");
    expect(light).toMatchObject({ name: "v1", message: null, target: commit.id, created_at: null, release: null, protected: false, commit: { id: commit.id } });
    const annotated = tagEntity(
      { name: "v2", annotated: true, message: "", target: "t".repeat(40), createdAt: "2026-01-02T00:00:00+00:00", commit: null },
      "http://q/p",
    );
    expect(annotated).toMatchObject({ message: "", created_at: "2026-01-02T00:00:00+00:00", commit: null });
  });
});

describe("tagSignatureEntity", () => {
  it("adds the X.509 certificate, with the serial as an integer when it fits one", () => {
    const issuer = { subject: "CN=CA", subjectKeyIdentifier: "AA:BB", crlUrl: "http://crl.example/ca.crl" };
    const cert = { subject: "CN=Ada", subjectKeyIdentifier: "01:02", email: "ada@example.com", serialNumber: "4242", issuer };
    expect(tagSignatureEntity({ signatureType: "X509", verificationStatus: "unverified", x509Certificate: cert })).toEqual({
      signature_type: "X509",
      verification_status: "unverified",
      x509_certificate: {
        id: null,
        subject: "CN=Ada",
        subject_key_identifier: "01:02",
        email: "ada@example.com",
        serial_number: 4242,
        certificate_status: "good",
        x509_issuer: { id: null, subject: "CN=CA", subject_key_identifier: "AA:BB", crl_url: "http://crl.example/ca.crl" },
      },
    });
    const big = tagSignatureEntity({
      signatureType: "X509",
      verificationStatus: "unverified",
      x509Certificate: { ...cert, serialNumber: "123456789012345678901234567890" },
    });
    expect(big).toMatchObject({ x509_certificate: { serial_number: "123456789012345678901234567890" } });
    expect(tagSignatureEntity({ signatureType: "X509", verificationStatus: "unverified", x509Certificate: null })).toMatchObject({ x509_certificate: null });
  });

  it("shows other signatures by type and status only", () => {
    expect(tagSignatureEntity({ signatureType: "SSH", verificationStatus: "unverified", x509Certificate: null })).toEqual({
      signature_type: "SSH",
      verification_status: "unverified",
    });
  });
});
