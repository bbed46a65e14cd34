import { generateKey } from "openpgp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVALID_KEY_MESSAGE } from "./gpg-keys.ts";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

let f: Fixture;
beforeAll(async () => {
  f = await identityFixture();
});
afterAll(() => f?.close());

/** A new armored public key (curve25519, with an encryption subkey) and its private key. */
async function newKey(email = "someone@example.com") {
  const { publicKey, privateKey } = await generateKey({ type: "ecc", curve: "curve25519Legacy", userIDs: [{ name: "Some One", email }], format: "armored" });
  return { publicKey, privateKey };
}

describe("GPG keys", () => {
  it("adds, lists, reads and deletes a user's keys, with the primary key's id, fingerprint and subkeys stored", async () => {
    const u = await f.user("gpgowner");
    const { publicKey } = await newKey();
    const created = await f.c.CreateGpgKey({ actor: u, key: `\n${publicKey}\n\n` });
    expect(created).toMatchObject({ key: publicKey.trim(), userId: u.userId, primaryKeyid: expect.stringMatching(/^[0-9A-F]{16}$/) });
    expect(created.fingerprint).toMatch(/^[0-9A-F]{40}$/);
    expect(created.fingerprint.endsWith(created.primaryKeyid)).toBe(true);
    const subkeys = await f.deps.prisma.gpgKeySubkey.findMany({ where: { gpgKeyId: Number(created.id) } });
    expect(subkeys).toHaveLength(1);
    expect(subkeys[0]!.keyid).toMatch(/^[0-9A-F]{16}$/);

    const list = await f.c.ListGpgKeys({ actor: u });
    expect(list.keys.map((k) => Number(k.id))).toEqual([Number(created.id)]);
    // Anyone may list a user's keys by id.
    expect((await f.c.ListGpgKeys({ actor: f.anonymous, userId: u.userId })).keys).toHaveLength(1);
    expect(await f.c.GetGpgKey({ actor: u, keyId: created.id })).toMatchObject({ id: created.id, key: publicKey.trim() });
    expect(await failure(f.c.ListGpgKeys({ actor: u, userId: 999999 }))).toEqual({ status: 404, body: { message: "404 User Not Found" } });

    const other = await f.user("gpgother");
    // Another user's key is not reachable through one's own keys; only administrators delete it.
    expect(await failure(f.c.GetGpgKey({ actor: other, keyId: created.id }))).toEqual({ status: 404, body: { message: "404 GPG Key Not Found" } });
    expect(await failure(f.c.DeleteGpgKey({ actor: other, userId: u.userId, keyId: created.id }))).toMatchObject({ status: 403 });
    expect(await failure(f.c.CreateGpgKey({ actor: other, userId: u.userId, key: publicKey }))).toMatchObject({ status: 403 });
    await f.c.DeleteGpgKey({ actor: f.admin, userId: u.userId, keyId: created.id, revoke: true });
    expect(await f.deps.prisma.gpgKeySubkey.count({ where: { gpgKeyId: Number(created.id) } })).toBe(0);
    expect(await failure(f.c.DeleteGpgKey({ actor: u, keyId: created.id }))).toEqual({ status: 404, body: { message: "404 GPG Key Not Found" } });
  });

  it("refuses what GitLab's GpgKey refuses, with its messages, writing nothing", async () => {
    const u = await f.user("gpgvalid");
    const { publicKey, privateKey } = await newKey();
    expect(await failure(f.c.CreateGpgKey({ actor: u, key: "" }))).toEqual({
      status: 400,
      body: { message: { key: ["can't be blank", INVALID_KEY_MESSAGE] } },
    });
    expect(await failure(f.c.CreateGpgKey({ actor: u, key: privateKey }))).toEqual({ status: 400, body: { message: { key: [INVALID_KEY_MESSAGE] } } });
    expect(await failure(f.c.CreateGpgKey({ actor: u, key: `${publicKey}\n${publicKey}` }))).toEqual({
      status: 400,
      body: { message: { key: [INVALID_KEY_MESSAGE] } },
    });
    // The right armor around something OpenPGP cannot read.
    const garbled = "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nbm90IGEga2V5\n-----END PGP PUBLIC KEY BLOCK-----";
    expect(await failure(f.c.CreateGpgKey({ actor: u, key: garbled }))).toEqual({
      status: 400,
      body: { message: { fingerprint: ["can't be blank"], primary_keyid: ["can't be blank"] } },
    });
    const withNul = "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nbm9\u0000wZQ==\n-----END PGP PUBLIC KEY BLOCK-----";
    expect(await failure(f.c.CreateGpgKey({ actor: u, key: withNul }))).toEqual({
      status: 400,
      body: { message: { fingerprint: ["can't be blank"], primary_keyid: ["can't be blank"] } },
    });
    expect(await f.deps.prisma.gpgKey.count({ where: { userId: u.userId } })).toBe(0);

    await f.c.CreateGpgKey({ actor: u, key: publicKey });
    const other = await f.user("gpgvalid2");
    expect(await failure(f.c.CreateGpgKey({ actor: other, key: publicKey }))).toEqual({ status: 400, body: { message: { key: ["has already been taken"] } } });
    // The same key armored differently (a comment header): its fingerprint is taken.
    const rearmored = publicKey.replace("-----BEGIN PGP PUBLIC KEY BLOCK-----\n", "-----BEGIN PGP PUBLIC KEY BLOCK-----\nComment: again\n");
    expect(await failure(f.c.CreateGpgKey({ actor: other, key: rearmored }))).toEqual({
      status: 400,
      body: { message: { fingerprint: ["has already been taken"], primary_keyid: ["has already been taken"] } },
    });
    expect(await f.deps.prisma.gpgKey.count({ where: { userId: other.userId } })).toBe(0);
  });

  it("lets administrators add keys to other users", async () => {
    const u = await f.user("gpgadmin");
    const { publicKey } = await newKey();
    const created = await f.c.CreateGpgKey({ actor: f.admin, userId: u.userId, key: publicKey });
    expect(Number(created.userId)).toBe(u.userId);
    expect(await failure(f.c.CreateGpgKey({ actor: f.admin, userId: 999999, key: publicKey }))).toEqual({
      status: 404,
      body: { message: "404 User Not Found" },
    });
  });
});
