import { paramError } from "@quarry/grpc";
import type { NotificationSetting } from "@quarry/proto/types/identity/v1/NotificationSetting";
import type { UpdateNotificationSettingRequest__Output } from "@quarry/proto/types/identity/v1/UpdateNotificationSettingRequest";
import type { IdentityDeps } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { actorOf } from "./access.ts";
import { defaultLevel, EVENT_FIELDS, settingKey, settingToProto, validateLevel, validateNotificationEmail } from "./notification-settings-common.ts";

/** Validates everything first, then upserts the one row: a rejected update writes nothing. */
export const updateNotificationSetting =
  (deps: IdentityDeps) =>
  async (req: UpdateNotificationSettingRequest__Output): Promise<NotificationSetting> => {
    const actor = actorOf(req.actor);
    const key = await settingKey(deps.prisma, actor, req.source);
    const user = await deps.prisma.user.findUniqueOrThrow({ where: { id: actor.userId } });
    const data: Prisma.NotificationSettingUncheckedUpdateInput = {};
    if (req.level !== undefined) {
      validateLevel(req.level);
      data.level = req.level;
    }
    if (req.notificationEmail !== undefined) {
      // Only the global setting has an e-mail (GitLab's API takes it on /notification_settings only).
      if (key.sourceType !== "global") throw paramError("notification_email does not have a valid value");
      const confirmed = await deps.prisma.email.findMany({ where: { userId: actor.userId, confirmedAt: { not: null } }, select: { email: true } });
      validateNotificationEmail(
        req.notificationEmail,
        user,
        confirmed.map((e) => e.email),
      );
      data.notificationEmail = req.notificationEmail || null;
    }
    for (const f of EVENT_FIELDS) {
      const v = req.events?.[f];
      if (v !== undefined && v !== null) data[f] = v;
    }
    const where = { userId_sourceType_sourceId: { userId: actor.userId, ...key } };
    const row = await deps.prisma.notificationSetting.upsert({
      where,
      update: data,
      create: { ...(data as Prisma.NotificationSettingUncheckedCreateInput), userId: actor.userId, ...key, level: (data.level as string) ?? defaultLevel(key) },
    });
    return settingToProto(actor.userId, key, row, user.email);
  };
