import type { Tag__Output as Tag } from "@quarry/proto/types/repo/v1/Tag";
import type { TagSignature__Output as TagSignature } from "@quarry/proto/types/repo/v1/TagSignature";
import { commitEntity } from "./commit.ts";

/**
 * A tag (GitLab's API::Entities::Tag). Lightweight tags have no message and no created_at; no
 * releases or protected tags exist yet.
 */
export function tagEntity(t: Tag, projectWebUrl: string) {
  return {
    name: t.name,
    message: t.annotated ? t.message : null,
    target: t.target,
    commit: t.commit ? commitEntity(t.commit, projectWebUrl) : null,
    release: null,
    protected: false,
    created_at: t.createdAt || null,
  };
}

/** A serial number as a JSON integer where it fits one exactly, else its decimal string. */
function serialNumber(decimal: string): number | string {
  const n = Number(decimal);
  return Number.isSafeInteger(n) ? n : decimal;
}

/**
 * A tag's signature (GitLab's API::Entities::TagSignature): the type and verification status,
 * and for X.509 the signing certificate. Certificates are not stored, so they have no ids.
 */
export function tagSignatureEntity(s: Pick<TagSignature, "signatureType" | "verificationStatus" | "x509Certificate">) {
  const base = { signature_type: s.signatureType, verification_status: s.verificationStatus };
  if (s.signatureType !== "X509") return base;
  const c = s.x509Certificate;
  return {
    ...base,
    x509_certificate: c
      ? {
          id: null,
          subject: c.subject,
          subject_key_identifier: c.subjectKeyIdentifier,
          email: c.email,
          serial_number: serialNumber(c.serialNumber),
          certificate_status: "good",
          x509_issuer: {
            id: null,
            subject: c.issuer?.subject ?? "",
            subject_key_identifier: c.issuer?.subjectKeyIdentifier ?? "",
            crl_url: c.issuer?.crlUrl ?? "",
          },
        }
      : null,
  };
}
