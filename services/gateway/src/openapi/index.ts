import type { Router } from "express";
import type { GatewayDeps } from "../deps.ts";
import { describeRoutes } from "./describe.ts";
import { type DocumentInfo, openApiDocument } from "./document.ts";

/**
 * The OpenAPI document of the router `build` makes, as JSON bytes: generated on first use (about
 * a second: every route's handlers are run in describe mode) and kept for the life of the process.
 */
export function cachedOpenApiJson(build: (deps: GatewayDeps) => Router, info: () => DocumentInfo): () => Promise<Buffer> {
  let json: Promise<Buffer> | undefined;
  return () => {
    if (!json) {
      json = describeRoutes(build)
        .then((routes) => openApiDocument(routes, info()))
        .then((doc) => Buffer.from(JSON.stringify(doc)));
      // A failure is not kept: the next request tries again.
      json.catch(() => {
        json = undefined;
      });
    }
    return json;
  };
}

export { describeRoutes, type RouteDescription } from "./describe.ts";
export { documented, openApiDocument } from "./document.ts";
