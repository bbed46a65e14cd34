import { badRequest } from "@quarry/grpc";
import type { ResolveNotificationSettingsRequest__Output } from "@quarry/proto/types/identity/v1/ResolveNotificationSettingsRequest";
import type { ResolveNotificationSettingsResponse } from "@quarry/proto/types/identity/v1/ResolveNotificationSettingsResponse";
import type { IdentityDeps } from "../deps.ts";
import type { NotificationSetting } from "../generated/prisma/client.ts";
import { actorOf } from "./access.ts";
import { requireAdmin } from "./lookup.ts";
import { settingToProto, type SettingKey } from "./notification-settings-common.ts";

const MAX_USERS = 1000;

/**
 * GitLab's NotificationRecipients precedence: the project's setting unless it is "global", then the
 * nearest group up the project's chain whose level is not "global", then the user's global setting
 * (participating when none is stored). Two queries however many users.
 */
export const resolveNotificationSettings =
  (deps: IdentityDeps) =>
  async (req: ResolveNotificationSettingsRequest__Output): Promise<ResolveNotificationSettingsResponse> => {
    requireAdmin(actorOf(req.actor));
    const userIds = [...new Set(req.userIds.map(Number))];
    if (userIds.length > MAX_USERS) throw badRequest(`at most ${MAX_USERS} user ids`);
    const db = deps.prisma;
    const projectId = Number(req.projectId) || 0;
    const project = projectId ? await db.project.findUnique({ where: { id: projectId }, include: { namespace: true } }) : null;
    // Nearest group first; a personal namespace has no group settings.
    const groupIds = project?.namespace.kind === "group" ? [...project.namespace.traversalIds].reverse() : [];
    const sources: { sourceType: string; sourceId: number }[] = [{ sourceType: "global", sourceId: 0 }];
    if (project) sources.push({ sourceType: "project", sourceId: project.id }, ...groupIds.map((id) => ({ sourceType: "namespace", sourceId: id })));
    const [users, rows] = await Promise.all([
      db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } }),
      db.notificationSetting.findMany({ where: { userId: { in: userIds }, OR: sources } }),
    ]);
    const rowOf = new Map(rows.map((r) => [`${r.userId}/${r.sourceType}/${r.sourceId}`, r]));
    const emailOf = new Map(users.map((u) => [u.id, u.email]));
    return {
      settings: userIds
        .filter((id) => emailOf.has(id))
        .map((userId) => {
          const find = (key: SettingKey) => rowOf.get(`${userId}/${key.sourceType}/${key.sourceId}`) ?? null;
          const global = find({ sourceType: "global", sourceId: 0 });
          const chain: SettingKey[] = project
            ? [{ sourceType: "project", sourceId: project.id }, ...groupIds.map((id) => ({ sourceType: "namespace" as const, sourceId: id }))]
            : [];
          let decided: { key: SettingKey; row: NotificationSetting | null } = { key: { sourceType: "global", sourceId: 0 }, row: global };
          for (const key of chain) {
            const row = find(key);
            if (row && row.level !== "global") {
              decided = { key, row };
              break;
            }
          }
          const s = settingToProto(userId, decided.key, decided.row, emailOf.get(userId)!);
          // A stored global setting of level "global" means nothing: GitLab's default then applies.
          const level = s.level === "global" ? "participating" : s.level;
          const email = global?.notificationEmail || emailOf.get(userId)!;
          return { userId, level, events: s.events, notificationEmail: email, sourceType: s.sourceType, sourceId: s.sourceId };
        }),
    };
  };
