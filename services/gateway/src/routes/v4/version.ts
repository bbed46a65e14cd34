import { notFoundMessage } from "@quarry/gitlab";
import { Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { requireUser, scope } from "../../http/auth.ts";
import { metadata, versionInfo } from "../../entities/version.ts";

/** GET /version, /metadata (signed-in users) and /license (absent: 404, which clients probe for). */
export function versionRouter(deps: GatewayDeps): Router {
  const r = Router();
  r.get("/version", scope("read"), (req, res) => {
    requireUser(req);
    res.json(versionInfo(deps.config.version, deps.config.revision));
  });
  r.get("/metadata", scope("read"), (req, res) => {
    requireUser(req);
    res.json(metadata(deps.config.version, deps.config.revision));
  });
  r.get("/license", (_req, res) => {
    res.status(404).json({ message: notFoundMessage() });
  });
  return r;
}
