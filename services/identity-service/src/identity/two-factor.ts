import { badRequest, forbidden, notFound, unauthenticated } from "@quarry/grpc";
import type { DisableTwoFactorRequest__Output } from "@quarry/proto/types/identity/v1/DisableTwoFactorRequest";
import type { StartTwoFactorRequest__Output } from "@quarry/proto/types/identity/v1/StartTwoFactorRequest";
import type { StartTwoFactorResponse } from "@quarry/proto/types/identity/v1/StartTwoFactorResponse";
import type { TwoFactorCodeRequest__Output } from "@quarry/proto/types/identity/v1/TwoFactorCodeRequest";
import { Secret, TOTP } from "otpauth";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { requireAdmin } from "./lookup.ts";

const ALREADY_ENABLED = "Two-factor authentication is already enabled";
const INVALID_CODE = "Invalid two-factor code";

/** GitLab's TOTP parameters (devise-two-factor's defaults): SHA1, 6 digits, 30-second steps. */
function totp(secret: string, issuer: string, username: string): TOTP {
  return new TOTP({ issuer, label: username, algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

/** A current code of `secret`, one step of clock drift either way (GitLab's otp_allowed_drift). */
export function validCode(secret: string | null, code: string): boolean {
  if (!secret || !/^\d{6}$/.test(code.trim())) return false;
  return totp(secret, "", "").validate({ token: code.trim(), window: 1 }) !== null;
}

async function signedIn(deps: IdentityDeps, actorMsg: StartTwoFactorRequest__Output["actor"]) {
  const actor = actorOf(actorMsg);
  if (!actor.userId) throw unauthenticated();
  const user = await deps.prisma.user.findUnique({
    where: { id: actor.userId },
    select: { id: true, username: true, twoFactorEnabled: true, otpSecret: true },
  });
  if (!user) throw notFound("User");
  return user;
}

/** POST /user/two_factor: a new secret for the caller, returned only in this answer. */
export const startTwoFactor =
  (deps: IdentityDeps) =>
  async (req: StartTwoFactorRequest__Output): Promise<StartTwoFactorResponse> => {
    const user = await signedIn(deps, req.actor);
    if (user.twoFactorEnabled) throw badRequest(ALREADY_ENABLED);
    const secret = new Secret({ size: 20 }).base32;
    // Conditional: a concurrent verification that enabled it keeps its secret.
    const { count } = await deps.prisma.user.updateMany({ where: { id: user.id, twoFactorEnabled: false }, data: { otpSecret: secret } });
    if (count === 0) throw badRequest(ALREADY_ENABLED);
    return { secret, otpauthUrl: totp(secret, req.issuer || "Quarry", user.username).toString() };
  };

/** POST /user/two_factor/verify: enables two-factor authentication on a valid code of the enrolment's secret. */
export const verifyTwoFactor =
  (deps: IdentityDeps) =>
  async (req: TwoFactorCodeRequest__Output): Promise<Record<string, never>> => {
    const user = await signedIn(deps, req.actor);
    if (user.twoFactorEnabled) throw badRequest(ALREADY_ENABLED);
    if (!validCode(user.otpSecret, req.otpCode)) throw badRequest(INVALID_CODE);
    await deps.prisma.user.updateMany({ where: { id: user.id, otpSecret: user.otpSecret }, data: { twoFactorEnabled: true } });
    return {};
  };

/** DELETE /user/two_factor: the caller turns it off with a valid current code; the secret is forgotten. */
export const disableOwnTwoFactor =
  (deps: IdentityDeps) =>
  async (req: TwoFactorCodeRequest__Output): Promise<Record<string, never>> => {
    const user = await signedIn(deps, req.actor);
    if (!user.twoFactorEnabled) throw badRequest("Two-factor authentication is not enabled");
    if (!validCode(user.otpSecret, req.otpCode)) throw badRequest(INVALID_CODE);
    await deps.prisma.user.update({ where: { id: user.id }, data: { twoFactorEnabled: false, otpSecret: null } });
    return {};
  };

/** GitLab's PATCH /users/:id/disable_two_factor (lib/api/users.rb and TwoFactor::DestroyService). */
export const disableTwoFactor =
  (deps: IdentityDeps) =>
  async (req: DisableTwoFactorRequest__Output): Promise<Record<string, never>> => {
    const actor = actorOf(req.actor);
    requireAdmin(actor);
    const user = await deps.prisma.user.findUnique({ where: { id: Number(req.id) }, select: { id: true, isAdmin: true, twoFactorEnabled: true } });
    if (!user) throw notFound("User");
    if (user.isAdmin) throw forbidden("403 Forbidden - Two-factor authentication for admins cannot be disabled via the API. Use the Rails console");
    const { count } = await deps.prisma.user.updateMany({ where: { id: user.id, twoFactorEnabled: true }, data: { twoFactorEnabled: false, otpSecret: null } });
    if (count === 0) throw badRequest("400 Bad request - Two-factor authentication is not enabled for this user");
    return {};
  };
