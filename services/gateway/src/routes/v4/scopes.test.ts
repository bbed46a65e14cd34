// Every API route must say which token scope it needs: a route without `scope(…)` let
// read_user and read_repository tokens download private job artifacts.
import { describe, expect, it } from "vitest";
import type { GatewayDeps } from "../../deps.ts";
import { v4Router } from "./index.ts";

/** Routes that authenticate with a runner or job token of their own, or need no credentials at all. */
const WITHOUT_USER_SCOPE = new Set([
  "GET /license",
  "POST /runners",
  "POST /runners/verify",
  "DELETE /runners",
  "POST /jobs/request",
  "PUT /jobs/:id",
  "PATCH /jobs/:id/trace",
  "POST /jobs/:id/artifacts",
  "GET /jobs/:id/artifacts",
  // The Sentry collector: the DSN's public key, no token.
  "POST /error_tracking/collector/api/:id/envelope",
  "POST /error_tracking/collector/api/:id/store",
]);

interface Layer {
  route?: { path: string; stack: { method?: string; handle: { scopeNeed?: string } }[] };
  handle: { stack?: Layer[] };
}

/** "METHOD path" of every route in the router, with whether a scope middleware guards it. */
function routes(stack: Layer[]): { route: string; scoped: boolean }[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      const methods = [...new Set(layer.route.stack.map((l) => l.method).filter(Boolean))];
      const scoped = layer.route.stack.some((l) => l.handle.scopeNeed !== undefined);
      return methods.map((m) => ({ route: `${m!.toUpperCase()} ${layer.route!.path}`, scoped }));
    }
    return layer.handle.stack ? routes(layer.handle.stack) : [];
  });
}

/** Deps that building the routers never calls: any property is another such object. */
const inert: GatewayDeps = new Proxy(() => inert, { get: () => inert }) as unknown as GatewayDeps;

describe("API routes", () => {
  it("each declare the token scope they need", () => {
    const all = routes((v4Router(inert) as unknown as { stack: Layer[] }).stack);
    expect(all.length).toBeGreaterThan(100);
    const unscoped = all.filter((r) => !r.scoped && !WITHOUT_USER_SCOPE.has(r.route)).map((r) => r.route);
    expect(unscoped).toEqual([]);
  });
});
