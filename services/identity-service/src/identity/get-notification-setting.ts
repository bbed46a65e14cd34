import type { GetNotificationSettingRequest__Output } from "@quarry/proto/types/identity/v1/GetNotificationSettingRequest";
import type { NotificationSetting } from "@quarry/proto/types/identity/v1/NotificationSetting";
import type { IdentityDeps } from "../deps.ts";
import { actorOf } from "./access.ts";
import { settingKey, settingToProto } from "./notification-settings-common.ts";

export const getNotificationSetting =
  (deps: IdentityDeps) =>
  async (req: GetNotificationSettingRequest__Output): Promise<NotificationSetting> => {
    const actor = actorOf(req.actor);
    const key = await settingKey(deps.prisma, actor, req.source);
    const [row, user] = await Promise.all([
      deps.prisma.notificationSetting.findUnique({ where: { userId_sourceType_sourceId: { userId: actor.userId, ...key } } }),
      deps.prisma.user.findUniqueOrThrow({ where: { id: actor.userId } }),
    ]);
    return settingToProto(actor.userId, key, row, user.email);
  };
