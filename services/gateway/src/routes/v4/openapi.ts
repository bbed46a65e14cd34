import { type Router as ExpressRouter, Router } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { scope } from "../../http/auth.ts";
import { JSON_CONTENT_TYPE } from "../../http/json.ts";
import { params } from "../../http/params.ts";
import { cachedOpenApiJson } from "../../openapi/index.ts";

/**
 * GET /openapi.json: the OpenAPI 3.1 document of every /api/v4 route (openapi/). `api` builds the
 * /api/v4 router (passed in rather than imported: that router mounts this one).
 */
export function openApiRouter(deps: GatewayDeps, api: (deps: GatewayDeps) => ExpressRouter): ExpressRouter {
  const r = Router();
  const json = cachedOpenApiJson(api, () => ({ version: deps.config.version, revision: deps.config.revision, externalUrl: deps.config.externalUrl }));
  // Public, as GitLab's API documentation is; a token's read scope is enough when one is sent.
  r.get("/openapi.json", scope("read"), async (req, res) => {
    params(req, {});
    // Before the document is asked for: describing this route stops at its first use of the response.
    res.setHeader("Content-Type", JSON_CONTENT_TYPE);
    res.send(await json());
  });
  return r;
}
