import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, identityFixture, type Fixture } from "./test-fixture.ts";

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

    await f.c.VerifyTwoFactor({ actor: u, otpCode: codeOf(again.secret) });
    expect(await enabled(u.userId)).toBe(true);
    expect((await f.c.GetUser({ actor: f.admin, id: u.userId })).twoFactorEnabled).toBe(true);
    const already = { status: 400, body: { message: "Two-factor authentication is already enabled" } };
    expect(await failure(f.c.StartTwoFactor({ actor: u, issuer: "x" }))).toEqual(already);
    expect(await failure(f.c.VerifyTwoFactor({ actor: u, otpCode: codeOf(again.secret) }))).toEqual(already);

    expect(await failure(f.c.DisableOwnTwoFactor({ actor: u, otpCode: codeOf(again.secret, Date.now() - 10 * 60_000) }))).toEqual(invalid);
    expect(await enabled(u.userId)).toBe(true);
    await f.c.DisableOwnTwoFactor({ actor: u, otpCode: codeOf(again.secret) });
    const row = await f.deps.prisma.user.findUniqueOrThrow({ where: { id: u.userId } });
    expect(row).toMatchObject({ twoFactorEnabled: false, otpSecret: null });
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
