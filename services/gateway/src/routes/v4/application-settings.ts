import { normalizeApplicationSettings, parseSettingsChanges } from "@quarry/application-settings";
import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireAdmin, scope } from "../../http/auth.ts";
import { ApiError } from "../../http/errors.ts";
import { applicationSettingsEntity } from "../../entities/application-settings.ts";
import { ctx } from "./context.ts";

type Snapshot = { settingsJson: string; createdAt: string; updatedAt: string };

const present = (s: Snapshot) =>
  applicationSettingsEntity({ settings: normalizeApplicationSettings(JSON.parse(s.settingsJson)), createdAt: s.createdAt, updatedAt: s.updatedAt });

/**
 * lib/api/settings.rb: GET and PUT /application/settings, administrators only. PUT takes any
 * subset of the honoured settings from the query string, a form or a JSON body (Grape merges
 * them); identity-service checks each value (@quarry/application-settings' parseSettingsChanges)
 * and every service applies the change at once.
 */
export function applicationSettingsRouter(deps: GatewayDeps): Router {
  const r = Router();
  r.get("/application/settings", scope("read"), async (req, res) => {
    requireAdmin(req);
    const c = ctx(deps, req, res);
    res.json(present(await deps.identity.GetApplicationSettings({ actor: c.actor }, c.call)));
  });
  r.put("/application/settings", scope("write"), async (req, res) => {
    requireAdmin(req);
    const c = ctx(deps, req, res);
    const body = req.body && typeof req.body === "object" && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
    const parsed = parseSettingsChanges({ ...(req.query as Record<string, unknown>), ...body });
    if (!parsed.ok) throw new ApiError(400, parsed.body);
    const updated = await deps.identity.UpdateApplicationSettings({ actor: c.actor, changesJson: JSON.stringify(parsed.changes) }, c.call);
    // This gateway applies the change before answering; other processes follow from the bus.
    deps.settings.apply({ settings: JSON.parse(updated.settingsJson), revision: Number(updated.revision) });
    res.json(present(updated));
  });
  return r;
}
