import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY_ID, pgpSignature } from "../../test/pgp.ts";
import { gitIn, makeCommit, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { getCommitSignature } from "./get-commit-signature.ts";

let t: TestContext;
let get: ReturnType<typeof getCommitSignature>;
let repo: { diskPath: string; dir: string };
let unsigned: string;

/** The commit object signedCommit writes, without its signature. */
function payload(): string {
  const tree = gitIn(repo.dir, "rev-parse", `${unsigned}^{tree}`);
  return `tree ${tree}\nparent ${unsigned}\nauthor A <a@example.com> 1700000000 +0000\ncommitter C <c@example.com> 1700000000 +0000\n\nSigned\n`;
}

/** Writes a commit object carrying `signature` as its gpgsig header. */
function signedCommit(signature: string): string {
  const header = signature.split("\n").join("\n ");
  const raw = payload().replace("\n\nSigned", `\ngpgsig ${header}\n\nSigned`);
  return execFileSync("git", ["--git-dir", repo.dir, "hash-object", "-t", "commit", "-w", "--stdin"], { input: raw, encoding: "utf8" }).trim();
}

beforeAll(async () => {
  t = await setUp("repo_commit_signature");
  get = getCommitSignature(t.deps);
  repo = await repositoryWith(t);
  unsigned = makeCommit(repo.dir, { message: "Plain\n" });
  gitIn(repo.dir, "update-ref", "refs/heads/main", unsigned);
});
afterAll(() => t?.close());

const request = (revision: string) => get({ diskPath: repo.diskPath, revision });

describe("GetCommitSignature", () => {
  it("reports a PGP signature with its issuer key id", async () => {
    const sha = signedCommit(pgpSignature());
    gitIn(repo.dir, "update-ref", "refs/heads/signed", sha);
    expect(await request("signed")).toMatchObject({ signatureType: "PGP", gpgKeyPrimaryKeyid: KEY_ID });
  });

  it("answers the signature, the signed bytes (the object without gpgsig) and the committer's e-mail for verification", async () => {
    const signature = pgpSignature();
    const answer = await request(signedCommit(signature));
    expect(answer.signature).toBe(signature);
    expect(Buffer.from(answer.signedData).toString("utf8")).toBe(payload());
    expect(answer.committerEmail).toBe("c@example.com");
  });

  it("reports SSH and X.509 signatures by kind", async () => {
    expect(await request(signedCommit("-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----"))).toMatchObject({
      signatureType: "SSH",
      gpgKeyPrimaryKeyid: "",
    });
    expect(await request(signedCommit("-----BEGIN SIGNED MESSAGE-----\nMIAG\n-----END SIGNED MESSAGE-----"))).toMatchObject({
      signatureType: "X509",
      gpgKeyPrimaryKeyid: "",
    });
  });

  it("answers 404 Signature Not Found for unsigned commits or unknown signature formats", async () => {
    await expect(request("main")).rejects.toMatchObject({ body: { message: "404 Signature Not Found" } });
    await expect(request(signedCommit("not a signature"))).rejects.toMatchObject({ body: { message: "404 Signature Not Found" } });
  });

  it("answers 404 Commit Not Found for an unknown commit", async () => {
    await expect(request("nope")).rejects.toMatchObject({ body: { message: "404 Commit Not Found" } });
  });
});
