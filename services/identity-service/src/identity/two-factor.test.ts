import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "@quarry/secret-box";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";
import { OTP_SECRET_CONTEXT } from "./two-factor.ts";

let f: Fixture;
beforeAll(async () => {
  f = await identityFixture();
});
afterAll(() => f?.close());

const codeOf = (secret: string, timestamp = Date.now()) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp });
const enabled = async (id: number) => (await f.deps.prisma.user.findUniqueOrThrow({ where: { id } })).twoFactorEnabled;

describe("two-factor authentication (TOTP)", () => {
  it("enrols with a current code, refuses wrong codes, and the caller disables it with a code", async () => {
    const u = await f.user("otpuser");
    const start = await f.c.StartTwoFactor({ actor: u, issuer: "gitlab.example.com" });
    expect(start.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(start.otpauthUrl);
    expect(`${url.protocol}//${url.host}${url.pathname}`).toBe("otpauth://totp/gitlab.example.com:otpuser");
    expect(url.searchParams.get("secret")).toBe(start.secret);
    expect(url.searchParams.get("issuer")).toBe("gitlab.example.com");

    // A new enrolment replaces the secret; only the latest one's codes count.
    const again = await f.c.StartTwoFactor({ actor: u, issuer: "gitlab.example.com" });
    expect(again.secret).not.toBe(start.secret);
    const invalid = { status: 400, body: { message: "Invalid two-factor code" } };
    expect(await failure(f.c.VerifyTwoFactor({ actor: u, otpCode: codeOf(start.secret, Date.now() - 10 * 60_000) }))).toEqual(invalid);
    expect(await failure(f.c.VerifyTwoFactor({ actor: u, otpCode: "abcdef" }))).toEqual(invalid);
    // A code ten minutes old is outside the one-step drift window.
    expect(await failure(f.c.VerifyTwoFactor({ actor: u, otpCode: codeOf(again.secret, Date.now() - 10 * 60_000) }))).toEqual(invalid);
    expect(await enabled(u.userId)).toBe(false);

    await f.c.VerifyTwoFactor({ actor: u, otpCode: codeOf(again.secret, Date.now() - 30_000) });
    expect(await enabled(u.userId)).toBe(true);
    expect((await f.c.GetUser({ actor: f.admin, id: u.userId })).twoFactorEnabled).toBe(true);
    const already = { status: 400, body: { message: "Two-factor authentication is already enabled" } };
    expect(await failure(f.c.StartTwoFactor({ actor: u, issuer: "x" }))).toEqual(already);
    expect(await failure(f.c.VerifyTwoFactor({ actor: u, otpCode: codeOf(again.secret) }))).toEqual(already);

    expect(await failure(f.c.DisableOwnTwoFactor({ actor: u, otpCode: codeOf(again.secret, Date.now() - 10 * 60_000) }))).toEqual(invalid);
    expect(await enabled(u.userId)).toBe(true);
    await f.c.DisableOwnTwoFactor({ actor: u, otpCode: codeOf(again.secret, Date.now() + 30_000) });
    const row = await f.deps.prisma.user.findUniqueOrThrow({ where: { id: u.userId } });
    expect(row).toMatchObject({ twoFactorEnabled: false, otpSecret: null, otpSecretSealed: null });
    expect(await failure(f.c.StartTwoFactor({ actor: f.anonymous, issuer: "x" }))).toMatchObject({ status: 401 });
  });

  it("lets administrators disable it with GitLab's answers", async () => {
    const u = await f.user("otpadmin");
    const other = await f.user("otpother");
    const { secret } = await f.c.StartTwoFactor({ actor: u, issuer: "h" });
    await f.c.VerifyTwoFactor({ actor: u, otpCode: codeOf(secret) });
    expect(await failure(f.c.DisableTwoFactor({ actor: other, id: u.userId }))).toMatchObject({ status: 403 });
    expect(await failure(f.c.DisableTwoFactor({ actor: f.admin, id: 999999 }))).toEqual({ status: 404, body: { message: "404 User Not Found" } });
    expect(await failure(f.c.DisableTwoFactor({ actor: f.admin, id: f.admin.userId }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden - Two-factor authentication for admins cannot be disabled via the API. Use the Rails console" },
    });
    expect(await enabled(u.userId)).toBe(true);
    await f.c.DisableTwoFactor({ actor: f.admin, id: u.userId });
    expect(await enabled(u.userId)).toBe(false);
    expect(await failure(f.c.DisableTwoFactor({ actor: f.admin, id: u.userId }))).toEqual({
      status: 400,
      body: { message: "400 Bad request - Two-factor authentication is not enabled for this user" },
    });
  });
});

const invalid = { status: 400, body: { message: "Invalid two-factor code" } };
const row = (id: number) => f.deps.prisma.user.findUniqueOrThrow({ where: { id } });

describe("two-factor hardening", () => {
  it("stores the secret sealed under the identity key, never in clear", async () => {
    const u = await f.user("otpsealed");
    const { secret } = await f.c.StartTwoFactor({ actor: u, issuer: "h" });
    const r = await row(u.userId);
    expect(r.otpSecret).toBeNull();
    expect(r.otpSecretSealed).not.toBeNull();
    const sealed = Buffer.from(r.otpSecretSealed!);
    expect(sealed.includes(Buffer.from(secret))).toBe(false);
    // The raw column, as PostgreSQL holds it.
    const [raw] = await f.deps.prisma.$queryRaw<{ otp_secret: string | null; sealed: string }[]>`
      SELECT otp_secret, encode(otp_secret_sealed, 'escape') AS sealed FROM users WHERE id = ${u.userId}`;
    expect(raw?.otp_secret).toBeNull();
    expect(raw?.sealed).not.toContain(secret);
    expect(createSecretBox("identity-fixture-encryption-key-0000000000", OTP_SECRET_CONTEXT).open(sealed)).toBe(secret);
    expect(() => createSecretBox("another-identity-encryption-key-000000000", OTP_SECRET_CONTEXT).open(sealed)).toThrow();
  });

  it("reads a legacy clear secret and seals it on the next write", async () => {
    const u = await f.user("otplegacy");
    const secret = new Secret({ size: 20 }).base32;
    await f.deps.prisma.user.update({ where: { id: u.userId }, data: { otpSecret: secret, otpSecretSealed: null } });
    await f.c.VerifyTwoFactor({ actor: u, otpCode: codeOf(secret) });
    const r = await row(u.userId);
    expect(r).toMatchObject({ twoFactorEnabled: true, otpSecret: null });
    expect(createSecretBox("identity-fixture-encryption-key-0000000000", OTP_SECRET_CONTEXT).open(r.otpSecretSealed!)).toBe(secret);
  });

  it("takes a code once per time step", async () => {
    const u = await f.user("otpreuse");
    const { secret } = await f.c.StartTwoFactor({ actor: u, issuer: "h" });
    const now = codeOf(secret);
    await f.c.VerifyTwoFactor({ actor: u, otpCode: now });
    // The same code (its step is consumed), and an earlier step's, are refused.
    expect(await failure(f.c.RegenerateRecoveryCodes({ actor: u, otpCode: now }))).toEqual(invalid);
    expect(await failure(f.c.DisableOwnTwoFactor({ actor: u, otpCode: codeOf(secret, Date.now() - 30_000) }))).toEqual(invalid);
    expect(await enabled(u.userId)).toBe(true);
    // The next step's code (within the drift window) is taken, once.
    const next = codeOf(secret, Date.now() + 30_000);
    await f.c.RegenerateRecoveryCodes({ actor: u, otpCode: next });
    expect(await failure(f.c.DisableOwnTwoFactor({ actor: u, otpCode: next }))).toEqual(invalid);
    expect((await row(u.userId)).consumedTimestep).toBeGreaterThanOrEqual(Math.floor(Date.now() / 30_000));
  });

  it("returns ten recovery codes once, stores digests, takes each once, and regenerates them", async () => {
    const u = await f.user("otprecovery");
    const { secret } = await f.c.StartTwoFactor({ actor: u, issuer: "h" });
    expect(await failure(f.c.RegenerateRecoveryCodes({ actor: u, otpCode: codeOf(secret) }))).toEqual({
      status: 400,
      body: { message: "Two-factor authentication is not enabled" },
    });
    const { codes } = await f.c.VerifyTwoFactor({ actor: u, otpCode: codeOf(secret) });
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[0-9a-f]{32}$/);
    const stored = (await row(u.userId)).otpBackupCodes;
    expect(stored).toHaveLength(10);
    for (const c of codes) expect(stored).not.toContain(c);

    // A recovery code is accepted where a code is: it is spent.
    const fresh = await f.c.RegenerateRecoveryCodes({ actor: u, otpCode: codes[0]! });
    expect(fresh.codes).toHaveLength(10);
    expect(fresh.codes.some((c) => codes.includes(c))).toBe(false);
    // The old codes are gone with the regeneration.
    expect(await failure(f.c.DisableOwnTwoFactor({ actor: u, otpCode: codes[1]! }))).toEqual(invalid);
    expect(await failure(f.c.DisableOwnTwoFactor({ actor: u, otpCode: "0".repeat(32) }))).toEqual(invalid);
    // Upper case is the same code; once used it is refused.
    await f.c.RegenerateRecoveryCodes({ actor: u, otpCode: fresh.codes[0]!.toUpperCase() }).then((r) => {
      expect(r.codes).toHaveLength(10);
      return f.c.DisableOwnTwoFactor({ actor: u, otpCode: r.codes[3]! });
    });
    expect(await row(u.userId)).toMatchObject({ twoFactorEnabled: false, otpBackupCodes: [], consumedTimestep: null });
  });
});
