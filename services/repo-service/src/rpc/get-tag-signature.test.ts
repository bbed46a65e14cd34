import { readFileSync } from "node:fs";
import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { annotatedTag, gitIn, makeCommit, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { getTagSignature } from "./get-tag-signature.ts";

/** A CMS signature made with `openssl cms -sign` by a self-signed certificate (serial 4242). */
const X509_BLOCK = readFileSync(new URL("../../test/fixtures/x509-signature.txt", import.meta.url), "utf8");

let t: TestContext;
let signature: ReturnType<typeof getTagSignature>;
let repo: { diskPath: string; dir: string };

beforeAll(async () => {
  t = await setUp("repo_tag_signature");
  signature = getTagSignature(t.deps);
  repo = await repositoryWith(t);
  const commit = makeCommit(repo.dir);
  const date = "1767225600 +0000";
  gitIn(repo.dir, "update-ref", "refs/tags/light", commit);
  annotatedTag(repo.dir, "plain", commit, "Not signed\n", date);
  annotatedTag(repo.dir, "pgp", commit, "Signed\n-----BEGIN PGP SIGNATURE-----\n\niQEzBAABCAAdFiEE\n=abcd\n-----END PGP SIGNATURE-----\n", date);
  annotatedTag(repo.dir, "ssh", commit, "Signed\n-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n", date);
  annotatedTag(repo.dir, "x509", commit, `Signed\n${X509_BLOCK}`, date);
  annotatedTag(repo.dir, "x509-garbled", commit, "Signed\n-----BEGIN SIGNED MESSAGE-----\nbm90IGRlcg==\n-----END SIGNED MESSAGE-----\n", date);
});
afterAll(() => t?.close());

const get = (name: string) => signature({ diskPath: repo.diskPath, name });

describe("GetTagSignature", () => {
  it("names the type of PGP and SSH signatures, unverified", async () => {
    expect(await get("pgp")).toMatchObject({ signatureType: "PGP", verificationStatus: "unverified", x509Certificate: null });
    expect(await get("ssh")).toMatchObject({ signatureType: "SSH", verificationStatus: "unverified" });
  });

  it("answers the signature, the bytes it signs (the object before it) and the tagger's e-mail for verification", async () => {
    const answer = await get("pgp");
    const block = "-----BEGIN PGP SIGNATURE-----\n\niQEzBAABCAAdFiEE\n=abcd\n-----END PGP SIGNATURE-----\n";
    expect(answer.signature).toBe(block);
    const object = gitIn(repo.dir, "cat-file", "tag", "pgp");
    expect(`${Buffer.from(answer.signedData ?? "").toString("utf8")}${block}`.trim()).toBe(object.trim());
    expect(
      Buffer.from(answer.signedData ?? "")
        .toString("utf8")
        .endsWith("\n\nSigned\n"),
    ).toBe(true);
    expect(answer.taggerEmail).toBe("grace@example.com");
  });

  it("reads the signing certificate of an X.509 signature", async () => {
    expect(await get("x509")).toMatchObject({
      signatureType: "X509",
      verificationStatus: "unverified",
      x509Certificate: {
        subject: "CN=Ada Lovelace,O=Quarry",
        subjectKeyIdentifier: "83:80:70:B7:AE:8C:A9:4F:87:51:6B:AB:49:C5:75:24:B4:BD:A7:FE",
        email: "ada@example.com",
        serialNumber: "4242",
        issuer: {
          subject: "CN=Ada Lovelace,O=Quarry",
          subjectKeyIdentifier: "83:80:70:B7:AE:8C:A9:4F:87:51:6B:AB:49:C5:75:24:B4:BD:A7:FE",
          crlUrl: "http://crl.example.com/ca.crl",
        },
      },
    });
    expect(await get("x509-garbled")).toMatchObject({ signatureType: "X509", verificationStatus: "unverified", x509Certificate: null });
  });

  it("answers 404 Signature Not Found for unsigned and lightweight tags, 404 Tag Not Found for missing ones", async () => {
    for (const name of ["plain", "light"]) {
      await expect(get(name), name).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Signature Not Found" } });
    }
    await expect(get("nope")).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Tag Not Found" } });
  });
});
