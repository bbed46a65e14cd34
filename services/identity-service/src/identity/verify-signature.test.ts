import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createMessage, generateKey, readKey, readPrivateKey, sign } from "openpgp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSshSignature } from "./verify-signature.ts";
import { identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "verify-sig-"));
beforeAll(async () => {
  f = await identityFixture();
});
afterAll(async () => {
  await f?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const PAYLOAD = Buffer.from("tree 4b825dc642cb6eb9a060e54bf8d69288fbdb04\nauthor A <a@example.com> 1700000000 +0000\n\nSigned\n");

/** A key pair whose user id carries `email`, plus a signing subkey. */
async function gpgKey(email: string) {
  return generateKey({ type: "ecc", curve: "curve25519Legacy", userIDs: [{ name: "Gee Pee", email }], subkeys: [{}, { sign: true }], format: "armored" });
}

/** A detached armored signature of `data` (by the primary key, or by the key id given). */
async function gpgSign(privateArmored: string, data: Buffer, keyId?: string): Promise<string> {
  const privateKey = await readPrivateKey({ armoredKey: privateArmored });
  const message = await createMessage({ binary: new Uint8Array(data) });
  // openpgp prefers a signing subkey; git's gpg signs with the primary key unless told otherwise.
  const wanted = keyId ?? privateKey.getKeyID().toHex().toUpperCase();
  const signingKeyIDs = privateKey
    .getKeys()
    .filter((k) => k.getKeyID().toHex().toUpperCase() === wanted)
    .map((k) => k.getKeyID());
  return (await sign({ message, signingKeys: privateKey, detached: true, format: "armored", signingKeyIDs })) as string;
}

let n = 0;
/** A new SSH key pair (ssh-keygen) and a function signing data with it in namespace `git` (or another). */
function sshKey(type: string[]) {
  const file = path.join(dir, `k${n++}`);
  execFileSync("ssh-keygen", [...type, "-N", "", "-q", "-C", "k", "-f", file]);
  return {
    publicKey: fs.readFileSync(`${file}.pub`, "utf8").trim(),
    sign(data: Buffer, namespace = "git"): string {
      const msg = path.join(dir, `m${n++}`);
      fs.writeFileSync(msg, data);
      execFileSync("ssh-keygen", ["-Y", "sign", "-q", "-n", namespace, "-f", file, msg]);
      return fs.readFileSync(`${msg}.sig`, "utf8");
    },
  };
}

const verify = (signatureType: string, signature: string, committerEmail: string, signedData = PAYLOAD) =>
  f.c.VerifySignature({ signatureType, signature, signedData, committerEmail });

describe("VerifySignature (PGP)", () => {
  it("answers unknown_key with the issuer's key id while no user has the key, then GitLab's statuses once one has", async () => {
    const owner = await f.user("pgpowner");
    const someone = await f.user("pgpsomeone");
    const key = await gpgKey("pgpowner@example.com");
    const keyid = (await readKey({ armoredKey: key.publicKey })).getKeyID().toHex().toUpperCase();
    const signature = await gpgSign(key.privateKey, PAYLOAD);

    expect(await verify("PGP", signature, "pgpowner@example.com")).toEqual({
      verificationStatus: "unknown_key",
      gpgKeyId: 0,
      gpgKeyPrimaryKeyid: keyid,
      gpgKeyUserName: "",
      gpgKeyUserEmail: "",
      gpgKeySubkeyId: 0,
      sshKey: null,
    });

    const added = await f.c.CreateGpgKey({ actor: owner, key: key.publicKey });
    const expected = { gpgKeyId: added.id, gpgKeyPrimaryKeyid: keyid, gpgKeyUserName: "Gee Pee", gpgKeyUserEmail: "pgpowner@example.com", gpgKeySubkeyId: 0 };
    expect(await verify("PGP", signature, "pgpowner@example.com")).toMatchObject({ verificationStatus: "verified", ...expected });
    expect(await verify("PGP", signature, "PGPOwner@Example.com")).toMatchObject({ verificationStatus: "verified" });
    expect(await verify("PGP", signature, "pgpsomeone@example.com")).toMatchObject({ verificationStatus: "other_user", ...expected });
    // Tampered data: the key is known, the signature does not check out.
    expect(await verify("PGP", signature, "pgpowner@example.com", Buffer.from("tampered"))).toMatchObject({ verificationStatus: "unverified", ...expected });

    // A confirmed secondary address of the owner that is not on the key.
    await f.c.CreateEmail({ actor: f.admin, userId: owner.userId, email: "owner-alt@example.com", skipConfirmation: true });
    expect(await verify("PGP", signature, "owner-alt@example.com")).toMatchObject({ verificationStatus: "same_user_different_email" });
    expect(someone.userId).toBeGreaterThan(0);
  });

  it("answers unverified_key when none of the key's e-mails is a verified address of its owner", async () => {
    const owner = await f.user("pgpunverified");
    const key = await gpgKey("elsewhere@example.org");
    const added = await f.c.CreateGpgKey({ actor: owner, key: key.publicKey });
    const signature = await gpgSign(key.privateKey, PAYLOAD);
    expect(await verify("PGP", signature, "elsewhere@example.org")).toMatchObject({
      verificationStatus: "unverified_key",
      gpgKeyId: added.id,
      gpgKeyUserEmail: "elsewhere@example.org",
    });
    // An unconfirmed secondary address does not verify the key; a confirmed one does.
    await f.c.CreateEmail({ actor: owner, email: "elsewhere@example.org" });
    expect(await verify("PGP", signature, "elsewhere@example.org")).toMatchObject({ verificationStatus: "unverified_key" });
    await f.deps.prisma.email.updateMany({ where: { email: "elsewhere@example.org" }, data: { confirmedAt: new Date() } });
    expect(await verify("PGP", signature, "elsewhere@example.org")).toMatchObject({ verificationStatus: "verified" });
  });

  it("matches a signature made with a subkey to the subkey", async () => {
    const owner = await f.user("pgpsub");
    const key = await gpgKey("pgpsub@example.com");
    const pub = await readKey({ armoredKey: key.publicKey });
    const signingSubkey = pub.getSubkeys()[1]!.getKeyID().toHex().toUpperCase();
    await f.c.CreateGpgKey({ actor: owner, key: key.publicKey });
    const row = await f.deps.prisma.gpgKeySubkey.findUniqueOrThrow({ where: { keyid: signingSubkey } });
    const signature = await gpgSign(key.privateKey, PAYLOAD, signingSubkey);
    expect(await verify("PGP", signature, "pgpsub@example.com")).toMatchObject({
      verificationStatus: "verified",
      gpgKeyId: 0,
      gpgKeySubkeyId: row.id,
      gpgKeyPrimaryKeyid: signingSubkey,
    });
  });

  it("answers unverified for what is no OpenPGP signature and for other types", async () => {
    expect(await verify("PGP", "-----BEGIN PGP SIGNATURE-----\n\nbm9wZQ==\n-----END PGP SIGNATURE-----", "x@example.com")).toMatchObject({
      verificationStatus: "unverified",
    });
    expect(await verify("X509", "whatever", "x@example.com")).toMatchObject({ verificationStatus: "unverified" });
  });
});

describe("VerifySignature (SSH)", () => {
  it("verifies ed25519, RSA and ECDSA signatures made by a user's signing key for that user's e-mail", async () => {
    const owner = await f.user("sshsigner");
    await f.user("sshsomeone");
    for (const type of [
      ["-t", "ed25519"],
      ["-t", "rsa", "-b", "2048"],
      ["-t", "ecdsa", "-b", "256"],
      ["-t", "ecdsa", "-b", "384"],
    ]) {
      const k = sshKey(type);
      const signature = k.sign(PAYLOAD);
      expect(parseSshSignature(signature)?.namespace).toBe("git");
      expect(await verify("SSH", signature, "sshsigner@example.com"), type.join(" ")).toEqual({
        verificationStatus: "unknown_key",
        gpgKeyId: 0,
        gpgKeyPrimaryKeyid: "",
        gpgKeyUserName: "",
        gpgKeyUserEmail: "",
        gpgKeySubkeyId: 0,
        sshKey: null,
      });
      const added = await f.c.CreateSshKey({ actor: owner, title: "signing", key: k.publicKey, usageType: "signing" });
      expect(await verify("SSH", signature, "sshsigner@example.com"), type.join(" ")).toMatchObject({
        verificationStatus: "verified",
        sshKey: { id: added.id, title: "signing", usageType: "signing" },
      });
      expect(await verify("SSH", signature, "sshsomeone@example.com"), type.join(" ")).toMatchObject({
        verificationStatus: "other_user",
        sshKey: { id: added.id },
      });
      expect(await verify("SSH", signature, "nobody@example.com"), type.join(" ")).toMatchObject({ verificationStatus: "other_user" });
      expect(await verify("SSH", signature, "sshsigner@example.com", Buffer.from("tampered")), type.join(" ")).toMatchObject({
        verificationStatus: "unverified",
        sshKey: null,
      });
    }
  });

  it("answers unverified for another namespace, unknown_key for an authentication-only key", async () => {
    const owner = await f.user("sshauthonly");
    const k = sshKey(["-t", "ed25519"]);
    await f.c.CreateSshKey({ actor: owner, title: "auth", key: k.publicKey, usageType: "auth" });
    expect(await verify("SSH", k.sign(PAYLOAD, "file"), "sshauthonly@example.com")).toMatchObject({ verificationStatus: "unverified" });
    expect(await verify("SSH", k.sign(PAYLOAD), "sshauthonly@example.com")).toMatchObject({ verificationStatus: "unknown_key" });
    expect(await verify("SSH", "-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----", "sshauthonly@example.com")).toMatchObject({
      verificationStatus: "unverified",
    });
  });
});
