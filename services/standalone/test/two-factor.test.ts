// Two-factor authentication end to end: Quarry's enrolment routes (/user/two_factor), a code computed
// here by the same TOTP library from the returned secret, GET /users' two_factor filter and the admin
// view, and GitLab's PATCH /users/:id/disable_two_factor with its answers; the secret sealed at rest
// (read from identity-service's table), a code taken once per step, and the recovery codes.
import { databaseUrlFor } from "@quarry/database";
import { Secret, TOTP } from "otpauth";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, jsonBody, jsonRequests, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
const { post } = jsonRequests(() => s);
const get = (path: string, token?: string | null) => s.api(path, { token });
const patch = (path: string, token?: string | null) => s.api(path, { method: "PATCH", token });
const codeOf = (secret: string, timestamp = Date.now()) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp });

beforeAll(async () => {
  s = await startTestStack();
}, 120_000);
afterAll(async () => {
  await s?.destroy();
});

describe("two-factor authentication", () => {
  it("a user enrols with a TOTP code; administrators see and filter it, and disable it with GitLab's answers", async () => {
    const u = await createUserWithToken(s);
    const other = await createUserWithToken(s);
    const start = await jsonBody(await post("/user/two_factor", {}, u.token), 201);
    expect(start).toEqual({ secret: expect.stringMatching(/^[A-Z2-7]+$/), otpauth_url: expect.any(String) });
    const host = new URL(s.url).host;
    expect(start.otpauth_url.startsWith(`otpauth://totp/${encodeURIComponent(host)}:${u.username}?`), start.otpauth_url).toBe(true);
    expect(new URL(start.otpauth_url).searchParams.get("secret")).toBe(start.secret);

    // Wrong code: 400, nothing enabled.
    const stale = codeOf(start.secret, Date.now() - 10 * 60_000);
    expect(await jsonBody(await post("/user/two_factor/verify", { otp_code: stale }, u.token), 400)).toEqual({ message: "Invalid two-factor code" });
    expect(await jsonBody(await post("/user/two_factor/verify", {}, u.token), 400)).toEqual({ error: "otp_code is missing" });
    expect((await jsonBody(await get(`/users/${u.id}`), 200)).two_factor_enabled).toBe(false);

    await jsonBody(await post("/user/two_factor/verify", { otp_code: codeOf(start.secret) }, u.token), 201);
    expect(await jsonBody(await post("/user/two_factor", {}, u.token), 400)).toEqual({ message: "Two-factor authentication is already enabled" });

    const enabled = (await jsonBody(await get("/users?two_factor=enabled&per_page=100"), 200)).map((x: { username: string }) => x.username);
    expect(enabled).toContain(u.username);
    expect(enabled).not.toContain(other.username);
    const disabledList = (await jsonBody(await get("/users?two_factor=disabled&per_page=100"), 200)).map((x: { username: string }) => x.username);
    expect(disabledList).not.toContain(u.username);
    expect((await jsonBody(await get(`/users/${u.id}`), 200)).two_factor_enabled).toBe(true);

    // GitLab's administrator API.
    expect(await jsonBody(await patch(`/users/${u.id}/disable_two_factor`, other.token), 403)).toEqual({ message: "403 Forbidden" });
    expect(await jsonBody(await patch("/users/999999/disable_two_factor"), 404)).toEqual({ message: "404 User Not Found" });
    await jsonBody(await patch(`/users/${u.id}/disable_two_factor`), 204);
    expect((await jsonBody(await get(`/users/${u.id}`), 200)).two_factor_enabled).toBe(false);
    expect(await jsonBody(await patch(`/users/${u.id}/disable_two_factor`), 400)).toEqual({
      message: "400 Bad request - Two-factor authentication is not enabled for this user",
    });
  });

  it("the user disables it with a current code", async () => {
    const u = await createUserWithToken(s);
    const { secret } = await jsonBody(await post("/user/two_factor", {}, u.token), 201);
    // The previous step's code (within the drift window): the current one stays unused.
    await jsonBody(await post("/user/two_factor/verify", { otp_code: codeOf(secret, Date.now() - 30_000) }, u.token), 201);
    const del = (json: unknown) => s.api("/user/two_factor", { method: "DELETE", json, token: u.token });
    expect(await jsonBody(await del({ otp_code: codeOf(secret, Date.now() - 10 * 60_000) }), 400)).toEqual({ message: "Invalid two-factor code" });
    await jsonBody(await del({ otp_code: codeOf(secret) }), 204);
    expect((await jsonBody(await get(`/users/${u.id}`), 200)).two_factor_enabled).toBe(false);
    expect((await s.api("/user/two_factor", { method: "POST", token: null })).status).toBe(401);
  });
});

/** identity-service's row of a user, as PostgreSQL holds it. */
async function otpColumns(id: number) {
  const client = new pg.Client({ connectionString: databaseUrlFor(s.options.serverUrl, `${s.options.prefix}_identity`) });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT otp_secret, otp_secret_sealed, consumed_timestep, otp_backup_codes FROM users WHERE id = $1", [id]);
    return rows[0] as { otp_secret: string | null; otp_secret_sealed: Buffer | null; consumed_timestep: number | null; otp_backup_codes: string[] };
  } finally {
    await client.end();
  }
}

describe("two-factor hardening", () => {
  it("keeps the secret sealed in the database, never in clear", async () => {
    const u = await createUserWithToken(s);
    const { secret } = await jsonBody(await post("/user/two_factor", {}, u.token), 201);
    const row = await otpColumns(u.id);
    expect(row.otp_secret).toBeNull();
    expect(row.otp_secret_sealed).toBeInstanceOf(Buffer);
    expect(row.otp_secret_sealed!.length).toBeGreaterThan(29);
    expect(row.otp_secret_sealed!.includes(Buffer.from(secret))).toBe(false);
    expect(row.otp_secret_sealed!.toString("latin1")).not.toContain(secret);
  });

  it("refuses a code used before within its time step", async () => {
    const u = await createUserWithToken(s);
    const { secret } = await jsonBody(await post("/user/two_factor", {}, u.token), 201);
    const code = codeOf(secret);
    await jsonBody(await post("/user/two_factor/verify", { otp_code: code }, u.token), 201);
    const del = (otp_code: string) => s.api("/user/two_factor", { method: "DELETE", json: { otp_code }, token: u.token });
    expect(await jsonBody(await del(code), 400)).toEqual({ message: "Invalid two-factor code" });
    expect((await jsonBody(await get(`/users/${u.id}`), 200)).two_factor_enabled).toBe(true);
    expect((await otpColumns(u.id)).consumed_timestep).toBeGreaterThan(0);
    // The next step's code is new.
    await jsonBody(await del(codeOf(secret, Date.now() + 30_000)), 204);
  });

  it("returns ten recovery codes once, each usable once, and regenerates them", async () => {
    const u = await createUserWithToken(s);
    const { secret } = await jsonBody(await post("/user/two_factor", {}, u.token), 201);
    expect(await jsonBody(await post("/user/two_factor/recovery_codes", { otp_code: codeOf(secret) }, u.token), 400)).toEqual({
      message: "Two-factor authentication is not enabled",
    });
    const enrolled = await jsonBody(await post("/user/two_factor/verify", { otp_code: codeOf(secret) }, u.token), 201);
    expect(enrolled.two_factor_enabled).toBe(true);
    const codes: string[] = enrolled.recovery_codes;
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[0-9a-f]{32}$/);
    // Stored as digests only.
    const stored = (await otpColumns(u.id)).otp_backup_codes;
    expect(stored).toHaveLength(10);
    expect(stored.some((d) => codes.includes(d))).toBe(false);

    const regen = (otp_code: string) => post("/user/two_factor/recovery_codes", { otp_code }, u.token);
    const fresh = (await jsonBody(await regen(codes[0]!), 201)).recovery_codes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => codes.includes(c))).toBe(false);
    // The old codes went with the regeneration; a new one works once where an OTP is taken.
    expect(await jsonBody(await regen(codes[1]!), 400)).toEqual({ message: "Invalid two-factor code" });
    expect(await jsonBody(await post("/user/two_factor/recovery_codes", {}, u.token), 400)).toEqual({ error: "otp_code is missing" });
    const del = (otp_code: string) => s.api("/user/two_factor", { method: "DELETE", json: { otp_code }, token: u.token });
    await jsonBody(await del(fresh[4]!), 204);
    expect((await jsonBody(await get(`/users/${u.id}`), 200)).two_factor_enabled).toBe(false);
    expect(await otpColumns(u.id)).toMatchObject({ otp_secret: null, otp_secret_sealed: null, otp_backup_codes: [] });
    expect((await s.api("/user/two_factor/recovery_codes", { method: "POST", json: { otp_code: fresh[5] }, token: null })).status).toBe(401);
  });
});
