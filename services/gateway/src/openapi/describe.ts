import type { Router } from "express";
import type { GatewayDeps } from "../deps.ts";
import type { Principal } from "../http/principal.ts";
import { DESCRIBE, type Shape } from "../http/params.ts";

/** One routed method and express path, with what its handlers declare. */
export interface RouteDescription {
  method: string;
  /** The express path, e.g. `/projects/:id/repository/tags/*tag_name`. */
  path: string;
  /** Which of the described router's own routers (in mounting order) the route is in: routes of one router share a tag. */
  router: number;
  /** The shapes the route hands to params(), merged; undefined when describing reached no params() call. */
  shape: Shape | undefined;
  /** What stopped the handlers: "deps", "res.<method>", an error's message, or "returned". */
  stoppedBy: string;
  /** The token scope a `scope(…)` middleware asks for, "by method", or undefined without one. */
  scopeNeed: string | undefined;
  /** Whether the route accepts a CI job token (http/job-token.ts). */
  acceptsJobToken: boolean;
}

/** What this module reads of express's router (router 2.x): routes, and routers mounted on a path. */
interface RouterLayer {
  rawPath?: unknown;
  route?: { path: unknown; stack: { method?: string; handle: Handler }[] };
  handle: Handler & { stack?: RouterLayer[] };
}
type Handler = ((req: unknown, res: unknown, next: (err?: unknown) => void) => unknown) & { scopeNeed?: string; acceptsJobToken?: true };

/** Deps to build the routers with, and what makes them inert once built. */
export interface DescribingDeps {
  deps: GatewayDeps;
  arm(): void;
}

/** Thrown by anything a route touches while being described: describing has no effect anywhere. */
class Touched extends Error {}

/**
 * Deps for building the routers and describing their routes. While the routers are built, any
 * property is another such object and any call returns one (factories keep clients and read
 * config); once `armed`, calling anything throws (and so does using a config value as a number or
 * a string), so a handler stops at its first call into a service or a cache.
 */
export function describingDeps(): DescribingDeps {
  let armed = false;
  const inert: object = new Proxy(() => undefined, {
    get: () => inert,
    apply: () => {
      if (armed) throw new Touched("deps");
      return inert;
    },
    construct: () => {
      if (armed) throw new Touched("deps");
      return inert;
    },
  });
  return { deps: inert as GatewayDeps, arm: () => (armed = true) };
}

/** A response nobody may use: describing writes nothing. */
const untouchable: object = new Proxy(
  {},
  {
    get: (_t, key) => {
      throw new Touched(`res.${String(key)}`);
    },
  },
);

/** How long one route's handlers may take to stop (they never wait on anything real). */
const HANDLER_PATIENCE_MS = 1000;

/**
 * Runs a route's handlers for `method` as express would (each after the previous one's `next()`)
 * on a request marked with DESCRIBE, until something stops them (their first use of deps or of the
 * response, a parameter they refuse) or they are done; what they asked params() to parse on the
 * way, merged, is the route's shape.
 */
async function captureShape(handlers: Handler[], method: string, path: string, pathParams: readonly string[]): Promise<{ shape?: Shape; stoppedBy: string }> {
  const shapes: Shape[] = [];
  const req = {
    [DESCRIBE]: shapes,
    method: method.toUpperCase(),
    url: path,
    originalUrl: path,
    path,
    baseUrl: "/api/v4",
    headers: {},
    // Every path parameter present, as express hands them over ("1" reads as an id or a name).
    params: Object.fromEntries(pathParams.map((n) => [n, "1"])),
    query: {},
    body: {},
    requestId: "describe",
    // An administrator with every scope, so that requireUser/requireAdmin let the handler go on to params().
    principal: { userId: 1, username: "describe", name: "describe", email: "", isAdmin: true, tokenId: 0, scopes: ["api"] } satisfies Principal,
    get: () => undefined,
    header: () => undefined,
  };
  let stoppedBy = "returned";
  for (const handle of handlers) {
    let timer: NodeJS.Timeout | undefined;
    const outcome = await new Promise<{ next: boolean; err?: unknown }>((resolve) => {
      timer = setTimeout(() => resolve({ next: false, err: new Touched("timeout") }), HANDLER_PATIENCE_MS);
      try {
        const result = handle(req, untouchable, (err?: unknown) => resolve({ next: err === undefined || err === "route", err }));
        if (result instanceof Promise)
          result.then(
            () => resolve({ next: false }),
            (err: unknown) => resolve({ next: false, err }),
          );
        else resolve({ next: false });
      } catch (err) {
        resolve({ next: false, err });
      }
    });
    clearTimeout(timer);
    if (outcome.next) continue;
    if (outcome.err !== undefined)
      stoppedBy = outcome.err instanceof Error ? outcome.err.message : JSON.stringify((outcome.err as { body?: unknown }).body ?? String(outcome.err));
    break;
  }
  // A parameter asked for twice (a helper and the handler) keeps its first schema.
  const shape: Shape = {};
  for (const [name, schema] of shapes.flatMap((s) => Object.entries(s))) shape[name] ??= schema;
  return shapes.length ? { shape, stoppedBy } : { stoppedBy };
}

/** The path parameter names in an express path (`:id`, `*tag_name`). */
const pathParamNames = (path: string): string[] => [...path.matchAll(/[:*](\w+)/g)].map((m) => m[1]!);

/** Every route of the routers under `stack`, in registration order, prefixed with the paths they are mounted at. */
function collect(stack: readonly RouterLayer[], prefix: string, router?: number): { method: string; path: string; router: number; handlers: Handler[] }[] {
  return stack.flatMap((layer, index) => {
    if (layer.route) {
      if (typeof layer.route.path !== "string") return [];
      const path = prefix + layer.route.path;
      const methods = [...new Set(layer.route.stack.map((l) => l.method).filter((m): m is string => Boolean(m)))];
      return methods.map((method) => ({
        method,
        path,
        router: router ?? index,
        handlers: layer.route!.stack.filter((l) => !l.method || l.method === method).map((l) => l.handle),
      }));
    }
    if (!layer.handle.stack || typeof layer.rawPath !== "string") return [];
    return collect(layer.handle.stack, layer.rawPath === "/" ? prefix : prefix + layer.rawPath, router ?? index);
  });
}

/**
 * Describes every route of the router `build` makes: the router is built afresh on deps that can
 * do nothing, and each route's handlers run on a request marked for params() to throw the shape
 * it is given. Nothing reaches a service, a cache or a response.
 */
export async function describeRoutes(build: (deps: GatewayDeps) => Router, using: DescribingDeps = describingDeps()): Promise<RouteDescription[]> {
  const { deps, arm } = using;
  const router = build(deps);
  arm();
  const out: RouteDescription[] = [];
  for (const route of collect((router as unknown as { stack: RouterLayer[] }).stack, "")) {
    // One route at a time, letting the gateway's other requests through in between.
    await new Promise((resolve) => setImmediate(resolve));
    const captured = await captureShape(route.handlers, route.method, route.path, pathParamNames(route.path));
    out.push({
      method: route.method,
      path: route.path,
      router: route.router,
      shape: captured.shape,
      stoppedBy: captured.stoppedBy,
      scopeNeed: route.handlers.find((h) => h.scopeNeed !== undefined)?.scopeNeed,
      acceptsJobToken: route.handlers.some((h) => h.acceptsJobToken === true),
    });
  }
  return out;
}
