import { notFound } from "@quarry/grpc";
import type { GetTagSignatureRequest__Output } from "@quarry/proto/types/repo/v1/GetTagSignatureRequest";
import type { TagSignature } from "@quarry/proto/types/repo/v1/TagSignature";
import type { RepoDeps } from "../deps.ts";
import { isRepository } from "../git/git.ts";
import { readTag } from "../refs/tags.ts";
import { x509SigningCertificate } from "../git/x509.ts";

/** Signature block headers and the type GitLab names them by. */
const SIGNATURE_TYPES: [string, string][] = [
  ["-----BEGIN PGP SIGNATURE-----", "PGP"],
  ["-----BEGIN PGP MESSAGE-----", "PGP"],
  ["-----BEGIN SIGNED MESSAGE-----", "X509"],
  ["-----BEGIN SSH SIGNATURE-----", "SSH"],
];

/**
 * The signature of an annotated tag: its type, "unverified" (no keys are registered to check it
 * against) and, for X.509, the signing certificate. `404 Tag Not Found` / `404 Signature Not
 * Found` for a missing tag and for an unsigned or lightweight one.
 */
export const getTagSignature =
  (deps: RepoDeps) =>
  async (req: GetTagSignatureRequest__Output): Promise<TagSignature> => {
    const dir = deps.storages.resolve(req.diskPath);
    if (!(await isRepository(dir))) throw notFound("Repository");
    const found = await readTag(dir, req.name);
    if (!found) throw notFound("Tag");
    const type = SIGNATURE_TYPES.find(([header]) => found.signature.startsWith(header))?.[1];
    if (!type) throw notFound("Signature");
    return {
      signatureType: type,
      verificationStatus: "unverified",
      x509Certificate: type === "X509" ? x509SigningCertificate(found.signature) : null,
    };
  };
