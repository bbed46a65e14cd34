// The signing certificate of an X.509 (S/MIME, gpgsm) signature block: the CMS SignedData's first
// certificate, read with a small DER walker and node's X509Certificate. Nothing is verified.
import { X509Certificate as NodeX509 } from "node:crypto";
import type { X509Certificate } from "@quarry/proto/types/repo/v1/X509Certificate";

interface Der {
  tag: number;
  /** Offset of the tag byte. */
  start: number;
  /** Offset of the content. */
  body: number;
  /** Offset after the content. */
  end: number;
}

function node(buf: Buffer, pos: number): Der {
  const tag = buf[pos];
  let len = buf[pos + 1];
  if (tag === undefined || len === undefined) throw new Error("truncated DER");
  let body = pos + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new Error("unsupported DER length");
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + (buf[body + i] ?? 0);
    body += n;
  }
  if (body + len > buf.length) throw new Error("truncated DER");
  return { tag, start: pos, body, end: body + len };
}

function children(buf: Buffer, parent: Der): Der[] {
  const out: Der[] = [];
  for (let pos = parent.body; pos < parent.end; pos = out[out.length - 1]!.end) out.push(node(buf, pos));
  return out;
}

function child(buf: Buffer, parent: Der, tag: number): Der | undefined {
  return children(buf, parent).find((c) => c.tag === tag);
}

const SEQUENCE = 0x30;
const OCTET_STRING = 0x04;
const CONTEXT_0 = 0xa0;
const EXTENSIONS = 0xa3;
const URI = 0x86;
const KEY_ID = 0x80;
const OID_SUBJECT_KEY_ID = "551d0e";
const OID_AUTHORITY_KEY_ID = "551d23";
const OID_CRL_POINTS = "551d1f";

const hexId = (b: Buffer) => (b.toString("hex").toUpperCase().match(/../g) ?? []).join(":");

/** The first tagged value `tag` anywhere below `parent` (depth first). */
function find(buf: Buffer, parent: Der, tag: number): Der | undefined {
  for (const c of children(buf, parent)) {
    if (c.tag === tag) return c;
    if (c.tag & 0x20) {
      const deeper = find(buf, c, tag);
      if (deeper) return deeper;
    }
  }
  return undefined;
}

/** Subject key id, authority key id and first CRL URL from the certificate's extensions. */
function extensions(der: Buffer): { ski: string; aki: string; crl: string } {
  const out = { ski: "", aki: "", crl: "" };
  const tbs = children(der, node(der, 0))[0];
  const exts = tbs && child(der, tbs, EXTENSIONS);
  const list = exts && children(der, exts)[0];
  if (!list) return out;
  for (const ext of children(der, list)) {
    const parts = children(der, ext);
    const oid = parts[0] ? der.subarray(parts[0].body, parts[0].end).toString("hex") : "";
    const value = parts.find((p) => p.tag === OCTET_STRING);
    if (!value) continue;
    const inner = node(der, value.body);
    if (oid === OID_SUBJECT_KEY_ID) out.ski = hexId(der.subarray(inner.body, inner.end));
    if (oid === OID_AUTHORITY_KEY_ID) {
      const id = child(der, inner, KEY_ID);
      if (id) out.aki = hexId(der.subarray(id.body, id.end));
    }
    if (oid === OID_CRL_POINTS) {
      const uri = find(der, inner, URI);
      if (uri) out.crl = der.subarray(uri.body, uri.end).toString("utf8");
    }
  }
  return out;
}

/** Node's one-RDN-per-line DN (in DN order) as RFC 2253 writes it: reversed, comma-separated. */
const rfc2253 = (dn: string) => dn.split("\n").filter(Boolean).reverse().join(",");

/** The certificates (DER) carried by a CMS ContentInfo holding SignedData. */
function cmsCertificates(cms: Buffer): Buffer[] {
  const contentInfo = node(cms, 0);
  if (contentInfo.tag !== SEQUENCE) return [];
  const explicit = child(cms, contentInfo, CONTEXT_0);
  const signedData = explicit && children(cms, explicit)[0];
  const certs = signedData && child(cms, signedData, CONTEXT_0);
  if (!certs) return [];
  return children(cms, certs)
    .filter((c) => c.tag === SEQUENCE)
    .map((c) => cms.subarray(c.start, c.end));
}

/**
 * The signer's certificate of a "-----BEGIN SIGNED MESSAGE-----" block, or null when the block
 * carries none or cannot be read.
 */
export function x509SigningCertificate(block: string): X509Certificate | null {
  const base64 = block
    .split("\n")
    .filter((l) => l && !l.startsWith("-----"))
    .join("");
  try {
    const der = cmsCertificates(Buffer.from(base64, "base64"))[0];
    if (!der) return null;
    const cert = new NodeX509(der);
    const { ski, aki, crl } = extensions(der);
    const altEmail = /(?:^|, )email:([^,]+)/.exec(cert.subjectAltName ?? "")?.[1];
    const dnEmail = /(?:^|\n)emailAddress=([^\n]+)/.exec(cert.subject)?.[1];
    return {
      subject: rfc2253(cert.subject),
      subjectKeyIdentifier: ski,
      email: altEmail ?? dnEmail ?? "",
      serialNumber: BigInt(`0x${cert.serialNumber}`).toString(),
      issuer: { subject: rfc2253(cert.issuer), subjectKeyIdentifier: aki, crlUrl: crl },
    };
  } catch {
    return null;
  }
}
