// What the notification senders share: the mail transport, effective settings, and the
// once-per-(event, recipient) delivery.
import type { Transporter } from "nodemailer";
import type { HookDeps } from "../deps.ts";
import { SYSTEM_ACTOR } from "../delivery/fan-out.ts";
import type { Mail } from "./issue-mail.ts";
import type { EffectiveSetting, Recipient } from "./recipients.ts";

export type Deps = Pick<HookDeps, "prisma" | "log" | "identity" | "settings" | "collab">;

export interface Notifier {
  transport: Transporter;
  /** From: header, e.g. "GitLab <gitlab@example.com>"; unset = gitlab@<host of the instance URL>, read at sending (the launcher sets the URL late). */
  from?: string;
}

/** A path below the instance made absolute. */
export const absolute = (deps: Deps, url: unknown) => {
  const path = String(url ?? "");
  return path.startsWith("/") ? `${deps.settings.instanceUrl}${path}` : path;
};

/** Custom switches GitLab turns on when unset (NotificationSetting defaults). */
const SWITCHED_ON_BY_DEFAULT = new Set<string>(["failed_pipeline", "fixed_pipeline", "moved_project"]);

/** camelCase proto switch name of a custom action (new_issue → newIssue). */
const switchName = (action: string) => action.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

/** Effective settings (project > group > global), in batches of identity's limit. */
export async function effectiveSettings(
  deps: Deps,
  userIds: number[],
  projectId: number,
  action: string,
  /** Further custom switches to read (new_merge_request: approver). */
  extra: string[] = [],
): Promise<Map<number, EffectiveSetting>> {
  const out = new Map<number, EffectiveSetting>();
  for (let i = 0; i < userIds.length; i += 1000) {
    const res = await deps.identity.ResolveNotificationSettings({ actor: SYSTEM_ACTOR, userIds: userIds.slice(i, i + 1000), projectId });
    for (const s of res.settings) {
      const switches = s.events as Record<string, boolean | undefined> | undefined;
      const events: Record<string, boolean> = {};
      for (const a of [action, ...extra]) events[a] = (switches?.[switchName(a)] ?? SWITCHED_ON_BY_DEFAULT.has(a)) === true;
      out.set(Number(s.userId), { level: s.level, events, email: s.notificationEmail });
    }
  }
  return out;
}

/** Claims, sends and marks one mail; false when it was already sent for this event. */
export async function deliver(deps: Deps, n: Notifier, eventId: string, action: string, r: Recipient, mail: Mail): Promise<boolean> {
  const row = await deps.prisma.notificationDelivery.upsert({
    where: { eventId_userId: { eventId, userId: r.userId } },
    create: { eventId, userId: r.userId, action },
    update: {},
  });
  if (row.state === "sent") return false;
  const from = n.from || `gitlab@${new URL(deps.settings.instanceUrl).hostname}`;
  await n.transport.sendMail({ from, to: r.email, subject: mail.subject, text: mail.text, headers: mail.headers });
  await deps.prisma.notificationDelivery.update({ where: { id: row.id }, data: { state: "sent", sentAt: new Date() } });
  return true;
}

/** All members of the project, direct and inherited, with their access level. */
export async function projectMembers(deps: Deps, projectId: number): Promise<Map<number, number>> {
  const members = new Map<number, number>();
  for (let page = 1; ; page++) {
    const res = await deps.identity.ListMembers({
      actor: SYSTEM_ACTOR,
      source: { kind: "project", idOrPath: String(projectId) },
      page: { page, perPage: 100 },
      includeInherited: true,
    });
    for (const m of res.members) if (m.user) members.set(Number(m.user.id), Math.max(m.accessLevel, members.get(Number(m.user.id)) ?? 0));
    if (res.members.length < 100) return members;
  }
}
