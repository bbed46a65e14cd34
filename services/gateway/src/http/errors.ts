import { STATUS_CODES } from "node:http";
import { notFoundMessage } from "@quarry/gitlab";
import { httpErrorFromGrpc } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import type { ErrorRequestHandler, RequestHandler, Response } from "express";

/** An HTTP error raised in the gateway itself (parameter validation, auth); bodies are GitLab's. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(JSON.stringify(body));
  }
}

export const missing = (names: string[]) => new ApiError(400, { error: names.map((n) => `${n} is missing`).join(", ") });
export const invalid = (names: string[]) => new ApiError(400, { error: names.map((n) => `${n} does not have a valid value`).join(", ") });
export const unauthorized = () => new ApiError(401, { message: "401 Unauthorized" });
export const forbidden = () => new ApiError(403, { message: "403 Forbidden" });
export const notFound = (what?: string) => new ApiError(404, { message: notFoundMessage(what) });
export const insufficientScope = (scope: string) =>
  new ApiError(403, {
    error: "insufficient_scope",
    error_description: "The request requires higher privileges than provided by the access token.",
    scope,
  });

/** Unknown routes: GitLab answers `{"error":"404 Not Found"}`. */
export const routeNotFound: RequestHandler = (_req, res) => {
  res.status(404).json({ error: notFoundMessage() });
};

/**
 * GitLab's answer to a request it cannot even read (Gitlab::Middleware::HandleMalformedStrings,
 * and Rack's parameter errors that it catches): 400, text/plain, "Bad Request".
 */
export function sendBadRequest(res: Response): void {
  res.status(400).type("text/plain").send("Bad Request");
}

/** Body-parser errors (http-errors: `type` and a 4xx `status`) that mean the body is beyond reading. */
const MALFORMED_BODY_TYPES = new Set(["querystring.parse.rangeError"]);
const UNSUPPORTED_MEDIA_TYPES = new Set(["charset.unsupported", "encoding.unsupported"]);

/** The 4xx status a client-caused error carries (body-parser, multer, the router's URI decoding), if any. */
function clientStatus(err: { status?: unknown; statusCode?: unknown }): number | undefined {
  const status = Number(err.status ?? err.statusCode);
  return Number.isInteger(status) && status >= 400 && status < 500 ? status : undefined;
}

/**
 * The one place errors become responses: gateway errors, request-reading failures (body
 * parsers, multipart, URI decoding: the 4xx they carry, with a GitLab body and never their own
 * message) and gRPC errors (through the shared status mapping). Unexpected errors are logged
 * and answered with a bare 500.
 */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    if (err instanceof ApiError) {
      res.status(err.status).json(err.body);
      return;
    }
    const e = err as { type?: string; status?: number; statusCode?: number; code?: unknown; name?: string };
    if (e.type === "entity.parse.failed") {
      res.status(400).json({ message: "400 Bad request - the request body is not valid JSON" });
      return;
    }
    if (e.type === "entity.too.large" || e.type === "parameters.too.many" || e.code === "LIMIT_FILE_SIZE" || e.code === "LIMIT_FIELD_VALUE") {
      res.status(413).json({ message: "413 Request Entity Too Large" });
      return;
    }
    if (UNSUPPORTED_MEDIA_TYPES.has(e.type ?? "")) {
      res.status(415).json({ message: "415 Unsupported Media Type" });
      return;
    }
    if (MALFORMED_BODY_TYPES.has(e.type ?? "")) {
      sendBadRequest(res);
      return;
    }
    if (e.name === "MulterError") {
      res.status(400).json({ message: "400 Bad request" });
      return;
    }
    if (typeof e.code === "number") {
      const mapped = httpErrorFromGrpc(err);
      if (mapped.status >= 500) log.warn({ err, path: req.path }, "service call failed");
      res.status(mapped.status).json(mapped.body);
      return;
    }
    const status = clientStatus(e);
    if (status !== undefined) {
      res.status(status).json({ message: status === 400 ? "400 Bad request" : `${status} ${STATUS_CODES[status] ?? "Client Error"}` });
      return;
    }
    log.error({ err, path: req.path }, "unhandled error");
    res.status(500).json({ message: "500 Internal Server Error" });
  };
}
