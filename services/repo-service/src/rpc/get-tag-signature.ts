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

/** The bytes a tag's signature signs: the object up to its signature block (which ends it). */
function signedPart(object: Buffer, signature: string): Buffer {
  const block = Buffer.from(signature, "utf8");
  if (block.length && object.subarray(object.length - block.length).equals(block)) return object.subarray(0, object.length - block.length);
  const at = object.lastIndexOf(signature.split("\n", 1)[0]!);
  return at === -1 ? object : object.subarray(0, at);
}

/** The e-mail of a tag object's `tagger` header, "" without one. */
function taggerEmail(object: Buffer): string {
  const end = object.indexOf("\n\n");
  const header = object.subarray(0, end === -1 ? object.length : end).toString("utf8");
  const line = header.split("\n").find((l) => l.startsWith("tagger ")) ?? "";
  const lt = line.indexOf("<");
  const gt = line.indexOf(">", lt);
  return lt === -1 || gt === -1 ? "" : line.slice(lt + 1, gt);
}

/**
 * The signature of an annotated tag: its type, "unverified" (no keys are registered to check it
 * against here) and, for X.509, the signing certificate; the signature, the bytes it signs and the
 * tagger's e-mail go along for identity-service to verify. `404 Tag Not Found` / `404 Signature Not
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
    const raw = await deps.catFile.use(dir, (p) => p.read(`refs/tags/${req.name}`));
    const object = raw?.type === "tag" ? raw.data : Buffer.alloc(0);
    return {
      signatureType: type,
      verificationStatus: "unverified",
      x509Certificate: type === "X509" ? x509SigningCertificate(found.signature) : null,
      signature: found.signature,
      signedData: signedPart(object, found.signature),
      taggerEmail: taggerEmail(object),
    };
  };
