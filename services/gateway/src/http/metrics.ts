import { BlockList, isIP } from "node:net";
import { notFoundMessage } from "@quarry/gitlab";
import { type Metrics, type MetricsJson, mergedMetricsText, secondsSince } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import type { Request, RequestHandler } from "express";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- express's own augmentation point
  namespace Express {
    interface Request {
      /** Where the router that routed the request is mounted ("/api/v4"), for the route label. */
      routePrefix?: string;
    }
  }
}

/**
 * Who may read /metrics when QUARRY_METRICS_ALLOWED_CIDRS does not say (GitLab's
 * monitoring_whitelist): loopback and the private ranges a cluster's scraper comes from.
 */
export const DEFAULT_METRICS_CIDRS = ["127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"];

/** Client addresses allowed to read /metrics. */
export interface AddressAllowList {
  allows(address: string | undefined): boolean;
}

/**
 * Parses CIDRs (`10.0.0.0/8`, `::1/128`, or a bare address for just that one), given as a list or
 * comma-separated as in the environment variable. A malformed entry throws: a typo must not open
 * /metrics, nor silently close it.
 */
export function parseAllowList(cidrs: string | readonly string[]): AddressAllowList {
  const entries = (typeof cidrs === "string" ? cidrs.split(",") : cidrs).map((c) => c.trim()).filter(Boolean);
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", prefix, extra] = entry.split("/");
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const length = prefix === undefined ? bits : /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
    if (family === 0 || extra !== undefined || !(length >= 0 && length <= bits)) throw new Error(`not an address or CIDR: "${entry}"`);
    list.addSubnet(address, length, family === 4 ? "ipv4" : "ipv6");
  }
  return {
    allows(address) {
      if (!address) return false;
      const family = isIP(address);
      // An IPv4 client of a dual-stack listener arrives as ::ffff:a.b.c.d; BlockList matches it to IPv4 ranges.
      return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
    },
  };
}

/**
 * GET /metrics: the registry in Prometheus' text format, unauthenticated but only for allowed
 * client addresses (`req.ip`, which believes X-Forwarded-For only from a loopback proxy); anybody
 * else gets GitLab's 404, as if there were nothing here.
 */
export function metricsRoute(metrics: Metrics, allowed: AddressAllowList, log: Logger, sources?: () => Promise<MetricsJson[]>): RequestHandler {
  const collect = sources ? async () => mergedMetricsText([await metrics.json(), ...(await sources())]) : () => metrics.text();
  return (req, res) => {
    if (!allowed.allows(req.ip)) {
      res.status(404).json({ error: notFoundMessage() });
      return;
    }
    collect().then(
      (body) => {
        // Set as prom-client says it: express' send would reorder the parameters.
        res.status(200).setHeader("Content-Type", metrics.contentType);
        res.end(body);
      },
      (err: unknown) => {
        log.error({ err }, "metrics could not be collected");
        res.status(500).json({ message: "500 Internal Server Error" });
      },
    );
  };
}

/** Marks where the router about to run is mounted, so that the route label carries the prefix. */
export const markRoutePrefix: RequestHandler = (req, _res, next) => {
  req.routePrefix = req.baseUrl;
  next();
};

/**
 * The route template that answered (`/api/v4/projects/:id`), never the raw path, so that the
 * label's values are bounded by the routes that exist. A request no route took is "unmatched"
 * (under a router's prefix: `<prefix>/*`, e.g. a 401 before routing).
 */
export function routeLabel(req: Request): string {
  const prefix = req.routePrefix ?? "";
  if (!req.route) return prefix ? `${prefix}/*` : "unmatched";
  const path: unknown = req.route.path;
  return prefix + (Array.isArray(path) ? path.map(String).join("|") : String(path));
}

/**
 * Counts and times every request by method, route template and status
 * (`http_requests_total`, `http_request_duration_seconds`), and writes the request's log line:
 * at debug, or at info when the gateway answered 5xx. Per request: one `close` listener, a map
 * read, an increment and an observe (no log line at the default level).
 */
export function observeRequests(o: { metrics: Metrics | undefined; log: Logger }): RequestHandler {
  const { metrics, log } = o;
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once("close", () => {
      const duration = secondsSince(started);
      // A client that went away before the answer was complete: nginx's 499.
      const status = res.writableFinished ? res.statusCode : 499;
      const route = routeLabel(req);
      metrics?.httpRequest(req.method, route, status, duration);
      if (status >= 500 || log.isLevelEnabled("debug")) {
        const line = { request_id: req.requestId, method: req.method, path: req.originalUrl.split("?", 1)[0], route, status, duration_s: duration };
        if (status >= 500) log.info(line, "request");
        else log.debug(line, "request");
      }
    });
    next();
  };
}
