// Two-factor authentication end to end: Quarry's enrolment routes (/user/two_factor), a code computed
// here by the same TOTP library from the returned secret, GET /users' two_factor filter and the admin
// view, and GitLab's PATCH /users/:id/disable_two_factor with its answers.
import { Secret, TOTP } from "otpauth";
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
    await jsonBody(await post("/user/two_factor/verify", { otp_code: codeOf(secret) }, u.token), 201);
    const del = (json: unknown) => s.api("/user/two_factor", { method: "DELETE", json, token: u.token });
    expect(await jsonBody(await del({ otp_code: codeOf(secret, Date.now() - 10 * 60_000) }), 400)).toEqual({ message: "Invalid two-factor code" });
    await jsonBody(await del({ otp_code: codeOf(secret) }), 204);
    expect((await jsonBody(await get(`/users/${u.id}`), 200)).two_factor_enabled).toBe(false);
    expect((await s.api("/user/two_factor", { method: "POST", token: null })).status).toBe(401);
  });
});
