import { isPositiveInt32 } from "@quarry/gitlab";
import express, { Router, type Request, type RequestHandler } from "express";
import type { GatewayDeps } from "../../deps.ts";
import { ApiError } from "../../http/errors.ts";

/** Largest (inflated) collector body: Sentry's own event limit is 1 MB; this stays under gRPC's 4 MiB message limit. */
const COLLECTOR_MAX_BYTES = 3 * 1024 * 1024;

/** GitLab's `bad_request!('Failed to parse sentry request')`. */
const parseFailure = () => new ApiError(400, { message: "400 Bad request - Failed to parse sentry request" });

/** The public key: the `sentry_key` parameter, else the `X-Sentry-Auth: Sentry sentry_key=…, …` header. */
export function sentryPublicKey(req: Request): string {
  const fromQuery = req.query.sentry_key;
  if (typeof fromQuery === "string" && fromQuery) return fromQuery;
  const header = req.get("x-sentry-auth") ?? "";
  const match = /(?:^|[\s,])sentry_key=([^,\s]+)/.exec(header.replace(/^Sentry\s+/i, " "));
  return match?.[1] ?? "";
}

/** A Sentry envelope's items: a header line, then per item a header line and a payload (`length` bytes or one line). */
export function envelopeItems(body: Buffer): { type: string; payload: string }[] {
  let at = body.indexOf(0x0a);
  if (at < 0) at = body.length;
  JSON.parse(body.subarray(0, at).toString("utf8"));
  const items: { type: string; payload: string }[] = [];
  let pos = at + 1;
  while (pos < body.length) {
    let end = body.indexOf(0x0a, pos);
    if (end < 0) end = body.length;
    const headerText = body.subarray(pos, end).toString("utf8").trim();
    pos = end + 1;
    if (!headerText) continue;
    const header = JSON.parse(headerText) as { type?: unknown; length?: unknown };
    let payload: Buffer;
    if (typeof header.length === "number") {
      payload = body.subarray(pos, pos + header.length);
      if (payload.length !== header.length) throw new Error("truncated item");
      pos += header.length + 1;
    } else {
      let stop = body.indexOf(0x0a, pos);
      if (stop < 0) stop = body.length;
      payload = body.subarray(pos, stop);
      pos = stop + 1;
    }
    items.push({ type: String(header.type ?? ""), payload: payload.toString("utf8") });
  }
  return items;
}

/**
 * GitLab's lib/api/error_tracking/collector.rb: Sentry SDKs post to the DSN's collector without a
 * token, authenticated by the client key only. Refusals (unknown project, tracking off, key not an
 * active key of the project) are all `404 Not Found`, checked before the payload is looked at;
 * accepted requests answer 200 with nothing (the DSN is public: nothing flows back).
 */
export function errorTrackingCollectorRouter(deps: GatewayDeps): Router {
  const r = Router();
  const base = "/error_tracking/collector/api/:id";
  // SDKs send envelopes without a content type, gzipped when large (body-parser inflates). Made on
  // first use: the body limit is configuration read when requests come, not when routers are built.
  let rawParser: RequestHandler | undefined;
  const raw: RequestHandler = (req, res, next) => {
    rawParser ??= express.raw({ type: () => true, limit: Math.min(deps.config.maxBodyBytes, COLLECTOR_MAX_BYTES) });
    rawParser(req, res, next);
  };
  const projectIdOf = (req: Request) => {
    const id = Number(req.params.id);
    if (!/^\d+$/.test(String(req.params.id)) || !isPositiveInt32(id)) throw new ApiError(404, { message: "404 Project Not Found" });
    return id;
  };
  const collect = (req: Request, projectId: number, events: string[]) =>
    deps.errorTracking.CollectEvents({ projectId, publicKey: sentryPublicKey(req), events }, { requestId: req.requestId });
  /** Refusals first: a bad payload with a bad key is still 404. */
  const refuseOrThrow = async (req: Request, projectId: number, err: unknown): Promise<never> => {
    await collect(req, projectId, []);
    throw err;
  };
  const bodyBuffer = (req: Request): Buffer =>
    Buffer.isBuffer(req.body) ? req.body : req.body && typeof req.body === "object" ? Buffer.from(JSON.stringify(req.body)) : Buffer.alloc(0);

  r.post(`${base}/envelope`, raw, async (req, res) => {
    const projectId = projectIdOf(req);
    let items: { type: string; payload: string }[];
    try {
      items = envelopeItems(bodyBuffer(req));
    } catch {
      return refuseOrThrow(req, projectId, parseFailure());
    }
    const events = items.filter((i) => i.type === "event").map((i) => i.payload);
    // Sentry sends events and transactions; only events are kept, anything else is refused.
    if (events.length === 0 && !items.some((i) => i.type === "transaction")) {
      return refuseOrThrow(req, projectId, new ApiError(400, { message: "400 Bad Request" }));
    }
    await collect(req, projectId, events);
    res.status(200).end();
  });

  r.post(`${base}/store`, raw, async (req, res) => {
    const projectId = projectIdOf(req);
    await collect(req, projectId, [bodyBuffer(req).toString("utf8")]);
    res.status(200).end();
  });

  return r;
}
