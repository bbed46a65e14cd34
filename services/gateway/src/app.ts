import { emailConfirmationRouter } from "./routes/v4/emails.ts";
import type { Metrics, MetricsJson } from "@quarry/grpc";
import express, { type Express } from "express";
import type { GatewayDeps } from "./deps.ts";
import { authenticate } from "./http/auth.ts";
import { errorHandler, routeNotFound } from "./http/errors.ts";
import { exactJsonContentType } from "./http/json.ts";
import { rejectMalformedInput } from "./http/malformed.ts";
import { multipartParser } from "./http/uploads.ts";
import { type AddressAllowList, markRoutePrefix, metricsRoute, observeRequests } from "./http/metrics.ts";
import { assignRequestId, carryRequestId } from "./http/request-id.ts";
import { avatarsRouter } from "./routes/avatars.ts";
import { uploadsWebRouter } from "./routes/uploads.ts";
import { gitHttpRouter } from "./routes/git-http.ts";
import { healthRouter } from "./routes/health.ts";
import { v4Router } from "./routes/v4/index.ts";
import { isArtifactUpload } from "./routes/v4/runner-jobs.ts";

export interface AppOptions {
  /** The gateway's registry: request counts and latencies, and GET /metrics for `metricsAllowed` addresses. */
  metrics?: Metrics;
  metricsAllowed?: AddressAllowList;
  /** Registries shown with the gateway's on GET /metrics (GatewayOptions.metricsSources). */
  metricsSources?: () => Promise<MetricsJson[]>;
}

/** The express application: request ids, metrics, body parsing, authentication, /api/v4 routes, git smart HTTP, errors. */
export function createApp(deps: GatewayDeps, options: AppOptions = {}): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  // qs parsing, so that `scopes[]=api&scopes[]=read_api` arrives as an array.
  app.set("query parser", "extended");
  app.set("trust proxy", "loopback");

  app.use(assignRequestId, (_req, res, next) => {
    res.setHeader("Cache-Control", "max-age=0, private, must-revalidate");
    next();
  });
  app.use(observeRequests({ metrics: options.metrics, log: deps.log }));
  if (options.metrics && options.metricsAllowed) app.get("/metrics", metricsRoute(options.metrics, options.metricsAllowed, deps.log, options.metricsSources));
  app.use(exactJsonContentType);

  const limit = deps.config.maxBodyBytes;
  // Which file parts a request may carry is declared by the route that will answer it (acceptFiles).
  const multipart = multipartParser({ fieldSize: limit, router: () => app.router });
  app.use(express.json({ limit, type: ["application/json", "application/*+json"] }));
  // The raw form stays available: qs merges `actions[][x]` sequences into one element, Rack
  // (and so GitLab) starts a new element at each repeated key (see http/form.ts).
  app.use(express.urlencoded({ extended: true, limit, parameterLimit: 10_000, verify: (req, _res, buf) => ((req as express.Request).rawForm = buf) }));
  // File parts only where a route takes them (avatars, uploads; http/uploads.ts); artifact uploads stream
  // their file to ci-service (routes/v4/runner-jobs.ts) instead.
  app.use((req, res, next) => {
    if (!req.is("multipart/form-data") || isArtifactUpload(req)) return next();
    multipart(req, res, next);
  });
  app.use(rejectMalformedInput);
  app.use(carryRequestId);

  app.use(healthRouter(deps));
  app.use(avatarsRouter(deps));
  app.use(uploadsWebRouter(deps));
  app.use(emailConfirmationRouter(deps));
  const v4 = v4Router(deps);
  app.use("/api/v4", markRoutePrefix, authenticate(deps, v4), v4);
  app.use(gitHttpRouter(deps));
  app.use(routeNotFound);
  app.use(errorHandler(deps.log));
  return app;
}
