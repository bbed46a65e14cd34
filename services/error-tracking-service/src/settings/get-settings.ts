import type { ProjectRef__Output } from "@quarry/proto/types/errortracking/v1/ProjectRef";
import type { Settings } from "@quarry/proto/types/errortracking/v1/Settings";
import { idOf, settingNotFound, toSettingsMessage } from "../common.ts";
import type { ErrorTrackingDeps } from "../deps.ts";

/** A project's settings; `404 Error Tracking Setting Not Found` when it has none. */
export const getSettings =
  (deps: ErrorTrackingDeps) =>
  async (req: ProjectRef__Output): Promise<Settings> => {
    const row = await deps.prisma.errorTrackingSetting.findUnique({ where: { projectId: idOf(req.projectId) } });
    if (!row) throw settingNotFound();
    return toSettingsMessage(row);
  };
