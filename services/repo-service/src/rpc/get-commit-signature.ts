import { notFound } from "@quarry/grpc";
import type { CommitSignature__Output as CommitSignature } from "@quarry/proto/types/repo/v1/CommitSignature";
import type { GetCommitSignatureRequest__Output as GetCommitSignatureRequest } from "@quarry/proto/types/repo/v1/GetCommitSignatureRequest";
import type { RepoDeps } from "../deps.ts";
import { requireCommit } from "../git/commit-objects.ts";
import { pgpIssuerKeyId, signatureType, withoutSignatureHeader } from "../git/signatures.ts";

/**
 * The kind of a commit's signature (and an OpenPGP issuer key id), read from its object;
 * `404 Signature Not Found` when it has none (or one in a format GitLab does not know). The
 * signature, the bytes it signs (the object without its gpgsig header) and the committer's e-mail
 * go along for identity-service to verify.
 */
export const getCommitSignature =
  (deps: RepoDeps) =>
  async (req: GetCommitSignatureRequest): Promise<CommitSignature> => {
    const { dir, commit } = await requireCommit(deps, req.diskPath, req.revision);
    const type = signatureType(commit.signature);
    if (!type) throw notFound("Signature");
    const raw = await deps.catFile.use(dir, (p) => p.read(commit.oid));
    return {
      signatureType: type,
      gpgKeyPrimaryKeyid: type === "PGP" ? (pgpIssuerKeyId(commit.signature) ?? "") : "",
      signature: commit.signature,
      signedData: raw ? withoutSignatureHeader(raw.data) : Buffer.alloc(0),
      committerEmail: commit.committer.email,
    };
  };
