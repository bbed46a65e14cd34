import { badRequest, paramError, unauthenticated } from "@quarry/grpc";
import type { NotificationEvents } from "@quarry/proto/types/identity/v1/NotificationEvents";
import type { NotificationSetting as SettingMsg } from "@quarry/proto/types/identity/v1/NotificationSetting";
import type { NotificationSource__Output } from "@quarry/proto/types/identity/v1/NotificationSource";
import type { PrismaClient } from "../deps.ts";
import type { NotificationSetting } from "../generated/prisma/client.ts";
import type { ActorInfo } from "./access.ts";
import { visibleGroup, visibleProject } from "./lookup.ts";

/** GitLab's NotificationSetting levels. */
export const NOTIFICATION_LEVELS = ["disabled", "participating", "watch", "global", "mention", "custom"] as const;

/** GitLab's NotificationSetting email events (new_epic is EE's), as proto/Prisma field names. */
export const EVENT_FIELDS = [
  "newRelease",
  "newNote",
  "newIssue",
  "reopenIssue",
  "closeIssue",
  "reassignIssue",
  "issueDue",
  "newMergeRequest",
  "pushToMergeRequest",
  "reopenMergeRequest",
  "closeMergeRequest",
  "reassignMergeRequest",
  "changeReviewerMergeRequest",
  "mergeMergeRequest",
  "failedPipeline",
  "fixedPipeline",
  "successPipeline",
  "movedProject",
  "mergeWhenPipelineSucceeds",
  "approver",
  "newEpic",
] as const satisfies readonly (keyof NotificationEvents & keyof NotificationSetting)[];

/** Where a setting is stored: (source_type, source_id), global = ("global", 0). */
export interface SettingKey {
  sourceType: "global" | "namespace" | "project";
  sourceId: number;
}

/** The caller's key for a source; the group or project must be readable (GitLab's find_source: 404 otherwise). */
export async function settingKey(db: PrismaClient, actor: ActorInfo, source: NotificationSource__Output | null): Promise<SettingKey> {
  if (!actor.userId) throw unauthenticated();
  const type = source?.type || "global";
  if (type === "global") return { sourceType: "global", sourceId: 0 };
  if (type === "group") return { sourceType: "namespace", sourceId: (await visibleGroup(db, actor, source?.idOrPath ?? "")).group.id };
  if (type === "project") return { sourceType: "project", sourceId: (await visibleProject(db, actor, source?.idOrPath ?? "")).project.id };
  throw paramError("source does not have a valid value");
}

/** GitLab's defaults: participating globally, "global" (inherit) for groups and projects. */
export const defaultLevel = (key: SettingKey) => (key.sourceType === "global" ? "participating" : "global");

export function validateLevel(level: string): void {
  if (!(NOTIFICATION_LEVELS as readonly string[]).includes(level)) throw paramError("level does not have a valid value");
}

/**
 * GitLab's User#notification_email rule: blank (the primary e-mail) or one of the user's verified
 * e-mails; Quarry keeps one e-mail per user, so only the primary one qualifies.
 */
export function validateNotificationEmail(email: string, user: { email: string }, confirmedEmails: string[] = []): void {
  if (email === "") return;
  const lower = email.toLowerCase();
  // The primary, or a confirmed secondary address (GitLab's verified_emails).
  if (lower !== user.email.toLowerCase() && !confirmedEmails.includes(lower)) throw badRequest({ notification_email: ["must be an email you have verified"] });
}

/** The message for a stored row, or the default when there is none. */
export function settingToProto(userId: number, key: SettingKey, row: NotificationSetting | null, primaryEmail: string): SettingMsg {
  const events: NotificationEvents = {};
  for (const f of EVENT_FIELDS) {
    const v = row?.[f];
    if (v !== null && v !== undefined) events[f] = v;
  }
  return {
    level: row?.level ?? defaultLevel(key),
    notificationEmail: key.sourceType === "global" ? row?.notificationEmail || primaryEmail : "",
    events,
    userId,
    sourceType: key.sourceType === "namespace" ? "group" : key.sourceType,
    sourceId: key.sourceId,
  };
}
