// GET/PUT /application/settings (GitLab's ApplicationSettingsController API): the one settings
// row, created at GitLab's defaults on first use. A change is written with a new revision and
// published (through the outbox, in the same transaction) as quarry.settings.application, which
// every service's ApplicationSettingsCache applies.
import { type ApplicationSettings, normalizeApplicationSettings, parseSettingsChanges } from "@quarry/application-settings";
import { enqueueEvent, Subjects } from "@quarry/bus";
import { badRequest, paramError } from "@quarry/grpc";
import type { ApplicationSettingsSnapshot } from "@quarry/proto/types/identity/v1/ApplicationSettingsSnapshot";
import type { GetApplicationSettingsRequest__Output } from "@quarry/proto/types/identity/v1/GetApplicationSettingsRequest";
import type { UpdateApplicationSettingsRequest__Output } from "@quarry/proto/types/identity/v1/UpdateApplicationSettingsRequest";
import type { IdentityDeps, Tx } from "../deps.ts";
import type { ApplicationSetting } from "../generated/prisma/client.ts";
import { actorOf } from "./access.ts";
import { requireAdmin } from "./lookup.ts";

const ROW_ID = 1;

type Db = Pick<Tx, "applicationSetting">;

/** The settings row, made at GitLab's defaults the first time anyone asks. */
async function settingsRow(db: Db): Promise<ApplicationSetting> {
  return db.applicationSetting.upsert({ where: { id: ROW_ID }, create: { id: ROW_ID }, update: {} });
}

/** The settings in force, for identity-service's own rules (visibility defaults, new users' defaults, …). */
export async function readApplicationSettings(db: Db): Promise<ApplicationSettings> {
  const row = await db.applicationSetting.findUnique({ where: { id: ROW_ID } });
  return normalizeApplicationSettings(row?.settings);
}

function snapshot(row: ApplicationSetting): ApplicationSettingsSnapshot {
  return {
    settingsJson: JSON.stringify(normalizeApplicationSettings(row.settings)),
    revision: row.revision,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const getApplicationSettings =
  (deps: IdentityDeps) =>
  async (req: GetApplicationSettingsRequest__Output): Promise<ApplicationSettingsSnapshot> => {
    requireAdmin(actorOf(req.actor));
    return snapshot(await settingsRow(deps.prisma));
  };

export const updateApplicationSettings =
  (deps: IdentityDeps) =>
  async (req: UpdateApplicationSettingsRequest__Output): Promise<ApplicationSettingsSnapshot> => {
    requireAdmin(actorOf(req.actor));
    let input: unknown;
    try {
      input = JSON.parse(req.changesJson || "{}");
    } catch {
      throw paramError("changes_json is invalid");
    }
    if (!input || typeof input !== "object" || Array.isArray(input)) throw paramError("changes_json is invalid");
    const parsed = parseSettingsChanges(input as Record<string, unknown>);
    if (!parsed.ok) throw "error" in parsed.body ? paramError(parsed.body.error) : badRequest(parsed.body.message);
    const row = await deps.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO application_settings (id, updated_at) VALUES (${ROW_ID}, now()) ON CONFLICT (id) DO NOTHING`;
      // Row lock: two concurrent changes get consecutive revisions, neither loses the other's keys.
      await tx.$queryRaw`SELECT id FROM application_settings WHERE id = ${ROW_ID} FOR UPDATE`;
      const current = await settingsRow(tx);
      const settings = { ...normalizeApplicationSettings(current.settings), ...parsed.changes };
      const updated = await tx.applicationSetting.update({ where: { id: ROW_ID }, data: { settings, revision: { increment: 1 } } });
      await enqueueEvent(tx, Subjects.applicationSettings, { settings, revision: updated.revision });
      return updated;
    });
    deps.outbox.kick();
    return snapshot(row);
  };
