import { randomUUID } from "node:crypto";
import { acceptRequestId, withRequestId } from "@quarry/grpc";
import type { RequestHandler } from "express";

/**
 * The request's id (GitLab's correlation id): a sane incoming `X-Request-Id` is kept (a proxy in
 * front chose it), anything else is replaced by a fresh UUID as Rails' RequestId does. It is
 * always answered in `X-Request-Id`, and sent on as `x-request-id` metadata with every call.
 */
export const assignRequestId: RequestHandler = (req, res, next) => {
  req.requestId = acceptRequestId(req.get("x-request-id")) ?? randomUUID();
  res.setHeader("X-Request-Id", req.requestId);
  next();
};

/**
 * Runs the rest of the request with its id as the current one, so that every gRPC call made for
 * it carries the id even where a route does not pass it. Mounted after the body parsers: a
 * stream's events do not run in the context of the middleware that waited for them.
 */
export const carryRequestId: RequestHandler = (req, _res, next) => {
  withRequestId(req.requestId, next);
};
