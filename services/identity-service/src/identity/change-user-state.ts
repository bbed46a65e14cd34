import { enqueueEvent, Subjects } from "@quarry/bus";
import { forbidden, notFound, paramError } from "@quarry/grpc";
import type { ChangeUserStateRequest__Output } from "@quarry/proto/types/identity/v1/ChangeUserStateRequest";
import type { ChangeUserStateResponse } from "@quarry/proto/types/identity/v1/ChangeUserStateResponse";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { userToProto } from "./convert.ts";
import { requireAdmin } from "./lookup.ts";
import { INTERNAL_USER_TYPES, userInclude } from "./users-common.ts";
import { enqueueAuditRecord } from "./audit-records.ts";
import { enqueueAccessChange } from "./access-changes.ts";

/** The past participle of each state change, for its audit event. */
const STATE_AUDIT_NAMES: Record<string, string> = {
  block: "blocked",
  unblock: "unblocked",
  deactivate: "deactivated",
  activate: "activated",
  ban: "banned",
  unban: "unbanned",
};

/** GitLab's User#blocked?: every state that is a kind of block. */
const BLOCKED_STATES = new Set(["blocked", "ldap_blocked", "blocked_pending_approval", "banned"]);
/** GitLab's deactivate_dormant_users_period default and User::MINIMUM_DAYS_CREATED. */
export const DORMANT_DAYS = 90;
const MINIMUM_DAYS_CREATED = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** `forbidden!(reason)`'s body, as opposed to a service's render_api_error!(message, 403). */
const forbiddenBang = (reason: string) => forbidden(`403 Forbidden - ${reason}`);

/** The state machine's events that move a user (User's state_machine in GitLab). */
const TRANSITIONS: Record<string, { from: string[]; to: string }> = {
  block: { from: ["active", "deactivated", "ldap_blocked", "blocked_pending_approval", "banned"], to: "blocked" },
  activate: { from: ["deactivated", "blocked", "ldap_blocked", "blocked_pending_approval", "banned"], to: "active" },
  deactivate: { from: ["active"], to: "deactivated" },
  ban: { from: ["active"], to: "banned" },
  unban: { from: ["banned"], to: "active" },
};

/** GitLab's User#can_be_deactivated?: no activity for 90 days (or, never active, created 7+ days ago). */
function dormant(u: { lastActivityOn: Date | null; createdAt: Date }, now = Date.now()): boolean {
  const today = Date.parse(new Date(now).toISOString().slice(0, 10));
  if (u.lastActivityOn) return u.lastActivityOn.getTime() <= today - DORMANT_DAYS * DAY_MS;
  return u.createdAt.getTime() <= today - MINIMUM_DAYS_CREATED * DAY_MS;
}

/** Time.current.to_s in UTC: "2026-11-26 09:20:00 UTC". */
const rubyTime = (d: Date) => `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;

/**
 * POST /users/:id/block|unblock|deactivate|activate|ban|unban with lib/api/users.rb's checks and
 * the Users::*Service rules and messages. Leaving "active" revokes nothing, but every gateway is
 * told to forget the user's cached tokens (token_revoke events), so they stop working at once.
 */
export const changeUserState =
  (deps: IdentityDeps) =>
  async (req: ChangeUserStateRequest__Output): Promise<ChangeUserStateResponse> => {
    const actor = actorOf(req.actor);
    requireAdmin(actor);
    const result = await deps.prisma.$transaction(async (tx) => {
      const user = await tx.user.findUnique({ where: { id: Number(req.id) }, include: userInclude });
      if (!user) throw notFound("User");
      const internal = INTERNAL_USER_TYPES.includes(user.userType);
      const blocked = BLOCKED_STATES.has(user.state);
      let event: string;
      let attribute: string | undefined;
      switch (req.action) {
        case "block":
          if (user.state === "ldap_blocked") throw forbiddenBang("LDAP blocked users cannot be modified by the API");
          if (user.id === actor.userId) throw forbiddenBang("The API initiating user cannot be blocked by the API");
          if (blocked) return { noop: true, user };
          if (internal) throw forbidden("An internal user cannot be blocked");
          event = "block";
          attribute = "blocked_by";
          break;
        case "unblock":
          if (user.state === "ldap_blocked") throw forbiddenBang("LDAP blocked users cannot be unblocked by the API");
          if (user.state === "deactivated") throw forbiddenBang("Deactivated users cannot be unblocked by the API");
          event = "activate";
          attribute = "unblocked_by";
          break;
        case "deactivate":
          if (user.state === "deactivated") return { noop: true, user };
          if (blocked) throw forbidden("Error occurred. A blocked user cannot be deactivated");
          if (internal) throw forbidden("Internal users cannot be deactivated");
          if (!dormant(user)) {
            throw forbidden(`The user you are trying to deactivate has been active in the past ${DORMANT_DAYS} days and cannot be deactivated`);
          }
          event = "deactivate";
          break;
        case "activate":
          if (blocked) throw forbiddenBang("A blocked user must be unblocked to be activated");
          event = "activate";
          break;
        case "ban":
          if (user.state !== "active") throw forbidden(`You cannot ban ${user.state} users.`);
          event = "ban";
          break;
        case "unban":
          if (user.state !== "banned") throw forbidden(`You cannot unban ${user.state} users.`);
          event = "unban";
          break;
        default:
          throw paramError("action does not have a valid value");
      }
      const transition = TRANSITIONS[event]!;
      // An impossible transition is the state machine's false (e.g. unblocking an active user).
      if (!transition.from.includes(user.state)) return { noop: false, changed: false, user };
      const updated = await tx.user.update({ where: { id: user.id }, data: { state: transition.to }, include: userInclude });
      if (attribute) {
        // GitLab's Users::BlockService / UnblockService note who did it, as a custom attribute.
        const admin = await tx.user.findUnique({ where: { id: actor.userId }, select: { username: true } });
        const value = `${admin?.username ?? ""}/${actor.userId}+${rubyTime(new Date())}`;
        await tx.customAttribute.upsert({
          where: { userId_key: { userId: user.id, key: attribute } },
          create: { userId: user.id, key: attribute, value },
          update: { value },
        });
      }
      await enqueueAccessChange(tx, { user_ids: [user.id] });
      if (transition.to !== "active") {
        const tokens = await tx.personalAccessToken.findMany({ where: { userId: user.id, revoked: false }, select: { id: true } });
        for (const t of tokens) {
          await enqueueEvent(tx, Subjects.tokenRevoke, { event_name: "token_revoke", token_id: t.id, user_id: user.id });
        }
      }
      // GitLab's user_blocked, user_unblocked, user_deactivated, user_activated, user_banned, user_unbanned.
      const past = STATE_AUDIT_NAMES[req.action] ?? req.action;
      await enqueueAuditRecord(tx, {
        event_name: `user_${past}`,
        actor: { user_id: actor.userId, ip_address: actor.ipAddress ?? "" },
        entity_type: "User",
        entity_id: user.id,
        entity_path: user.username,
        target_type: "User",
        target_id: user.id,
        target_details: user.username,
        details: { custom_message: `${past[0]!.toUpperCase()}${past.slice(1)} user ${user.username}` },
      });
      return { noop: false, changed: true, user: updated };
    });
    deps.outbox.kick();
    return { noop: result.noop, changed: Boolean(result.changed), user: userToProto(result.user) };
  };
