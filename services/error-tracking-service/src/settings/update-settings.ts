import type { Settings } from "@quarry/proto/types/errortracking/v1/Settings";
import type { UpdateSettingsRequest__Output } from "@quarry/proto/types/errortracking/v1/UpdateSettingsRequest";
import { idOf, settingNotFound, toSettingsMessage } from "../common.ts";
import type { ErrorTrackingDeps } from "../deps.ts";

/**
 * GitLab's Projects::Operations::UpdateService for `error_tracking_setting_attributes`: PATCH changes
 * existing settings only (404 otherwise), PUT creates them when missing.
 */
export const updateSettings =
  (deps: ErrorTrackingDeps) =>
  async (req: UpdateSettingsRequest__Output): Promise<Settings> => {
    const projectId = idOf(req.projectId);
    const data = { enabled: req.active, ...(req.integrated != null ? { integrated: req.integrated } : {}) };
    if (req.create) {
      const row = await deps.prisma.errorTrackingSetting.upsert({ where: { projectId }, create: { projectId, ...data }, update: data });
      return toSettingsMessage(row);
    }
    const { count } = await deps.prisma.errorTrackingSetting.updateMany({ where: { projectId }, data });
    if (count === 0) throw settingNotFound();
    return toSettingsMessage(await deps.prisma.errorTrackingSetting.findUniqueOrThrow({ where: { projectId } }));
  };
