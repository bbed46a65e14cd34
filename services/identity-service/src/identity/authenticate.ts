import { unauthenticated } from "@quarry/grpc";
import type { AuthenticateRequest__Output } from "@quarry/proto/types/identity/v1/AuthenticateRequest";
import type { AuthenticateResponse } from "@quarry/proto/types/identity/v1/AuthenticateResponse";
import type { IdentityDeps } from "../deps.ts";
import { userToProto } from "./convert.ts";
import { tokenDigest } from "./passwords.ts";
import { enqueueAuditRecord } from "./audit-records.ts";
import { enqueueAccessChange } from "./access-changes.ts";

// last_used_at is refreshed at most this often, so authentication stays a read.
const LAST_USED_GRANULARITY_MS = 10 * 60 * 1000;

/**
 * Resolves a token by its digest; unknown, revoked or expired → UNAUTHENTICATED. The owner comes
 * back whatever their state: the gateway refuses blocked, banned and deactivated users with
 * GitLab's 403 messages (which name the external URL). An active user's API use is their activity
 * (GitLab's last_activity_on, a date, written at most once a day).
 */
export const authenticate =
  (deps: IdentityDeps) =>
  async (req: AuthenticateRequest__Output): Promise<AuthenticateResponse> => {
    if (!req.token) throw unauthenticated();
    const token = await deps.prisma.personalAccessToken.findUnique({
      where: { tokenDigest: tokenDigest(req.token) },
      include: { user: { include: { namespace: { select: { id: true } } } } },
    });
    const todayIso = new Date().toISOString().slice(0, 10);
    const today = Date.parse(todayIso);
    if (!token || token.revoked || (token.expiresAt && token.expiresAt.getTime() <= today)) {
      throw unauthenticated();
    }
    if (!token.lastUsedAt || Date.now() - token.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
      // Throttled as last_used_at: an audit event only when the token's use is written down.
      await deps.prisma.$transaction(async (tx) => {
        await tx.personalAccessToken.update({ where: { id: token.id }, data: { lastUsedAt: new Date() } });
        await enqueueAuditRecord(tx, {
          event_name: "authenticated_with_token",
          actor: { user_id: token.userId, ip_address: req.ipAddress },
          entity_type: "User",
          entity_id: token.userId,
          entity_path: token.user.username,
          target_type: "PersonalAccessToken",
          target_id: token.id,
          target_details: token.name,
          details: { custom_message: `Authenticated with personal access token with id ${token.id}` },
        });
      });
      deps.outbox.kick();
    }
    let user = token.user;
    if (user.state === "active" && user.lastActivityOn?.toISOString().slice(0, 10) !== todayIso) {
      // A column write, as GitLab's update_column: updated_at stays the profile's.
      await deps.prisma.$executeRaw`UPDATE users SET last_activity_on = ${todayIso}::date WHERE id = ${user.id}`;
      await enqueueAccessChange(deps.prisma, { user_ids: [user.id] }); // GET /user's last_activity_on (once a day)
      deps.outbox.kick();
      user = { ...user, lastActivityOn: new Date(todayIso) };
    }
    return {
      user: userToProto(user),
      tokenId: token.id,
      scopes: token.scopes,
      expiresAt: token.expiresAt ? token.expiresAt.toISOString().slice(0, 10) : "",
    };
  };
