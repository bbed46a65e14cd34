import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireAdmin, requireUser, scope } from "../../http/auth.ts";
import { p, params } from "../../http/params.ts";
import { ctx } from "./context.ts";

/**
 * Two-factor authentication (TOTP). GitLab enrols in its web UI; Quarry has none, so enrolment is
 * Quarry's own `POST /user/two_factor` (a new secret and its otpauth:// URL, shown once),
 * `POST /user/two_factor/verify` (`otp_code` enables it) and `DELETE /user/two_factor` (`otp_code`
 * disables it; a recovery code works too), `POST /user/two_factor/recovery_codes` (ten new recovery
 * codes). GitLab's administrator API `PATCH /users/:id/disable_two_factor` as lib/api/users.rb.
 */
export function twoFactorRouter(deps: GatewayDeps): Router {
  const r = Router();
  const { identity } = deps;
  const issuer = () => new URL(deps.config.externalUrl).host;

  r.post("/user/two_factor", scope("write"), async (req, res) => {
    requireUser(req);
    const c = ctx(deps, req, res);
    const out = await identity.StartTwoFactor({ actor: c.actor, issuer: issuer() }, c.call);
    res.status(201).json({ secret: out.secret, otpauth_url: out.otpauthUrl });
  });

  r.post("/user/two_factor/verify", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { otp_code: p.string() });
    const c = ctx(deps, req, res);
    const out = await identity.VerifyTwoFactor({ actor: c.actor, otpCode: q.otp_code }, c.call);
    // The recovery codes are shown only in this answer (GitLab shows them once after enrolment).
    res.status(201).json({ two_factor_enabled: true, recovery_codes: out.codes });
  });

  r.delete("/user/two_factor", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { otp_code: p.string() });
    const c = ctx(deps, req, res);
    await identity.DisableOwnTwoFactor({ actor: c.actor, otpCode: q.otp_code }, c.call);
    res.status(204).end();
  });

  // Quarry's regeneration of the recovery codes (GitLab's internal API for gitlab-shell answers
  // `recovery_codes` too); needs a current code, or an unused recovery code, in otp_code.
  r.post("/user/two_factor/recovery_codes", scope("write"), async (req, res) => {
    requireUser(req);
    const q = params(req, { otp_code: p.string() });
    const c = ctx(deps, req, res);
    const out = await identity.RegenerateRecoveryCodes({ actor: c.actor, otpCode: q.otp_code }, c.call);
    res.status(201).json({ recovery_codes: out.codes });
  });

  r.patch("/users/:id/disable_two_factor", scope("write"), async (req, res) => {
    requireAdmin(req);
    const q = params(req, { id: p.id("User") });
    const c = ctx(deps, req, res);
    await identity.DisableTwoFactor({ actor: c.actor, id: q.id }, c.call);
    res.status(204).end();
  });

  return r;
}
