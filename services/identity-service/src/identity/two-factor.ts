import { createHash, randomBytes } from "node:crypto";
import { badRequest, forbidden, notFound, unauthenticated } from "@quarry/grpc";
import type { DisableTwoFactorRequest__Output } from "@quarry/proto/types/identity/v1/DisableTwoFactorRequest";
import type { StartTwoFactorRequest__Output } from "@quarry/proto/types/identity/v1/StartTwoFactorRequest";
import type { StartTwoFactorResponse } from "@quarry/proto/types/identity/v1/StartTwoFactorResponse";
import type { TwoFactorCodeRequest__Output } from "@quarry/proto/types/identity/v1/TwoFactorCodeRequest";
import type { TwoFactorRecoveryCodes } from "@quarry/proto/types/identity/v1/TwoFactorRecoveryCodes";
import type { SecretBox } from "@quarry/secret-box";
import { Secret, TOTP } from "otpauth";
import type { IdentityDeps, PrismaClient, Tx } from "../deps.ts";
import { actorOf } from "./access.ts";
import { requireAdmin } from "./lookup.ts";
import { enqueueAccessChange } from "./access-changes.ts";

const ALREADY_ENABLED = "Two-factor authentication is already enabled";
const NOT_ENABLED = "Two-factor authentication is not enabled";
const INVALID_CODE = "Invalid two-factor code";

/** The secret-box context of users.otp_secret_sealed: a value sealed for another column does not open here. */
export const OTP_SECRET_CONTEXT = "identity.otp_secret";
/** TOTP step in milliseconds (GitLab's devise-two-factor: 30 seconds). */
const STEP_MS = 30_000;
/** GitLab's devise two_factor_backupable settings: ten codes of 32 hex characters. */
const RECOVERY_CODES = 10;
const RECOVERY_CODE_BYTES = 16;

/** GitLab's TOTP parameters (devise-two-factor's defaults): SHA1, 6 digits, 30-second steps. */
function totp(secret: string, issuer: string, username: string): TOTP {
  return new TOTP({ issuer, label: username, algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

/**
 * The time step a current code of `secret` belongs to, one step of clock drift either way
 * (GitLab's otp_allowed_drift), or null when the code is not one.
 */
export function codeStep(secret: string | null, code: string, now = Date.now()): number | null {
  if (!secret || !/^\d{6}$/.test(code.trim())) return null;
  const delta = totp(secret, "", "").validate({ token: code.trim(), window: 1, timestamp: now });
  return delta === null ? null : Math.floor(now / STEP_MS) + delta;
}

/** A current code of `secret` (no reuse check: see acceptCode). */
export function validCode(secret: string | null, code: string): boolean {
  return codeStep(secret, code) !== null;
}

interface OtpRow {
  id: number;
  otpSecret: string | null;
  otpSecretSealed: Uint8Array | null;
}

/** The clear secret: sealed, or a legacy row's clear value (re-sealed on the next write, see sealedData). */
export function secretOf(box: SecretBox, row: OtpRow): string | null {
  if (row.otpSecretSealed) return box.open(row.otpSecretSealed);
  return row.otpSecret;
}

/** Columns that store `secret` sealed (and drop a legacy clear copy). */
function sealedData(box: SecretBox, secret: string) {
  return { otpSecretSealed: new Uint8Array(box.seal(secret)), otpSecret: null };
}

export const recoveryCodeDigest = (code: string) => createHash("sha256").update(code.trim().toLowerCase()).digest("hex");

/** Ten new recovery codes: the clear ones (shown once) and their digests (stored). */
function newRecoveryCodes(): { codes: string[]; digests: string[] } {
  const codes = Array.from({ length: RECOVERY_CODES }, () => randomBytes(RECOVERY_CODE_BYTES).toString("hex"));
  return { codes, digests: codes.map(recoveryCodeDigest) };
}

/**
 * Accepts a code where GitLab accepts an OTP: a TOTP code of a step later than the last one
 * accepted (a code is not taken twice, devise-two-factor's consumed_timestep), or an unused
 * recovery code, which is spent. Both conditional writes, so concurrent uses of one code take it once.
 */
export async function acceptCode(db: PrismaClient | Tx, box: SecretBox, row: OtpRow, code: string): Promise<boolean> {
  const secret = secretOf(box, row);
  const step = codeStep(secret, code);
  if (step !== null && secret) {
    const { count } = await db.user.updateMany({
      where: { id: row.id, OR: [{ consumedTimestep: null }, { consumedTimestep: { lt: step } }] },
      data: { consumedTimestep: step, ...(row.otpSecretSealed ? {} : sealedData(box, secret)) },
    });
    return count === 1;
  }
  const trimmed = code.trim();
  if (!/^[0-9a-fA-F]{32}$/.test(trimmed)) return false;
  const digest = recoveryCodeDigest(trimmed);
  const count = await db.$executeRaw`
    UPDATE users SET otp_backup_codes = array_remove(otp_backup_codes, ${digest}) WHERE id = ${row.id} AND ${digest} = ANY(otp_backup_codes)`;
  return count === 1;
}

const otpSelect = { id: true, username: true, twoFactorEnabled: true, otpSecret: true, otpSecretSealed: true, consumedTimestep: true } as const;

async function signedIn(deps: IdentityDeps, actorMsg: StartTwoFactorRequest__Output["actor"]) {
  const actor = actorOf(actorMsg);
  if (!actor.userId) throw unauthenticated();
  const user = await deps.prisma.user.findUnique({ where: { id: actor.userId }, select: otpSelect });
  if (!user) throw notFound("User");
  return user;
}

/** Everything of an enrolment, forgotten (TwoFactor::DestroyService). */
const cleared = { twoFactorEnabled: false, otpSecret: null, otpSecretSealed: null, consumedTimestep: null, otpBackupCodes: [] };

/** Turns a user's two-factor authentication off; false when it was not on. */
export async function clearTwoFactor(db: PrismaClient | Tx, userId: number): Promise<boolean> {
  const { count } = await db.user.updateMany({ where: { id: userId, twoFactorEnabled: true }, data: cleared });
  if (count === 1) await enqueueAccessChange(db, { user_ids: [userId] }); // two_factor_enabled
  return count === 1;
}

/** POST /user/two_factor: a new secret for the caller, returned only in this answer; stored sealed. */
export const startTwoFactor =
  (deps: IdentityDeps) =>
  async (req: StartTwoFactorRequest__Output): Promise<StartTwoFactorResponse> => {
    const user = await signedIn(deps, req.actor);
    if (user.twoFactorEnabled) throw badRequest(ALREADY_ENABLED);
    const secret = new Secret({ size: 20 }).base32;
    // Conditional: a concurrent verification that enabled it keeps its secret.
    const { count } = await deps.prisma.user.updateMany({
      where: { id: user.id, twoFactorEnabled: false },
      data: { ...sealedData(deps.otpBox, secret), consumedTimestep: null, otpBackupCodes: [] },
    });
    if (count === 0) throw badRequest(ALREADY_ENABLED);
    return { secret, otpauthUrl: totp(secret, req.issuer || "Quarry", user.username).toString() };
  };

/**
 * POST /user/two_factor/verify: enables two-factor authentication on a valid code of the
 * enrolment's secret, and returns the ten recovery codes (only here; stored as digests).
 */
export const verifyTwoFactor =
  (deps: IdentityDeps) =>
  async (req: TwoFactorCodeRequest__Output): Promise<TwoFactorRecoveryCodes> => {
    const user = await signedIn(deps, req.actor);
    if (user.twoFactorEnabled) throw badRequest(ALREADY_ENABLED);
    const secret = secretOf(deps.otpBox, user);
    const step = codeStep(secret, req.otpCode);
    if (step === null || !secret) throw badRequest(INVALID_CODE);
    const { codes, digests } = newRecoveryCodes();
    // Conditional on the enrolment read (a newer POST /user/two_factor wins) and on the step being new.
    const { count } = await deps.prisma.user.updateMany({
      where: {
        id: user.id,
        twoFactorEnabled: false,
        otpSecret: user.otpSecret,
        otpSecretSealed: user.otpSecretSealed,
        OR: [{ consumedTimestep: null }, { consumedTimestep: { lt: step } }],
      },
      data: { twoFactorEnabled: true, consumedTimestep: step, otpBackupCodes: digests, ...(user.otpSecretSealed ? {} : sealedData(deps.otpBox, secret)) },
    });
    if (count === 0) throw badRequest(INVALID_CODE);
    await enqueueAccessChange(deps.prisma, { user_ids: [user.id] }); // two_factor_enabled
    deps.outbox.kick();
    return { codes };
  };

/** DELETE /user/two_factor: the caller turns it off with a valid current code or a recovery code. */
export const disableOwnTwoFactor =
  (deps: IdentityDeps) =>
  async (req: TwoFactorCodeRequest__Output): Promise<Record<string, never>> => {
    const user = await signedIn(deps, req.actor);
    if (!user.twoFactorEnabled) throw badRequest(NOT_ENABLED);
    if (!(await acceptCode(deps.prisma, deps.otpBox, user, req.otpCode))) throw badRequest(INVALID_CODE);
    await deps.prisma.user.update({ where: { id: user.id }, data: cleared });
    await enqueueAccessChange(deps.prisma, { user_ids: [user.id] }); // two_factor_enabled
    deps.outbox.kick();
    return {};
  };

/**
 * Quarry's POST /user/two_factor/recovery_codes: ten new recovery codes replace the old ones;
 * needs a valid current code (or an unused recovery code).
 */
export const regenerateRecoveryCodes =
  (deps: IdentityDeps) =>
  async (req: TwoFactorCodeRequest__Output): Promise<TwoFactorRecoveryCodes> => {
    const user = await signedIn(deps, req.actor);
    if (!user.twoFactorEnabled) throw badRequest(NOT_ENABLED);
    if (!(await acceptCode(deps.prisma, deps.otpBox, user, req.otpCode))) throw badRequest(INVALID_CODE);
    const { codes, digests } = newRecoveryCodes();
    const { count } = await deps.prisma.user.updateMany({ where: { id: user.id, twoFactorEnabled: true }, data: { otpBackupCodes: digests } });
    if (count === 0) throw badRequest(NOT_ENABLED);
    return { codes };
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
    if (!(await clearTwoFactor(deps.prisma, user.id))) throw badRequest("400 Bad request - Two-factor authentication is not enabled for this user");
    deps.outbox.kick();
    return {};
  };
