import { status } from "@grpc/grpc-js";
import { notFoundMessage } from "@quarry/gitlab";
import { ERROR_BODY_KEY, HTTP_STATUS_KEY, LEGACY_ERROR_BODY_KEY, ServiceError } from "./errors.ts";

/** The single gRPC status → HTTP status mapping used by the gateway. */
const HTTP_BY_CODE: Record<number, number> = {
  [status.OK]: 200,
  [status.INVALID_ARGUMENT]: 400,
  [status.FAILED_PRECONDITION]: 400,
  [status.OUT_OF_RANGE]: 400,
  [status.UNAUTHENTICATED]: 401,
  [status.PERMISSION_DENIED]: 403,
  [status.NOT_FOUND]: 404,
  [status.ALREADY_EXISTS]: 409,
  [status.ABORTED]: 409,
  [status.RESOURCE_EXHAUSTED]: 429,
  [status.UNIMPLEMENTED]: 501,
  [status.UNAVAILABLE]: 503,
  [status.DEADLINE_EXCEEDED]: 503,
  [status.CANCELLED]: 503,
  [status.INTERNAL]: 500,
  [status.UNKNOWN]: 500,
  [status.DATA_LOSS]: 500,
};

const DEFAULT_MESSAGES: Record<number, string> = {
  400: "400 Bad request",
  401: "401 Unauthorized",
  403: "403 Forbidden",
  404: notFoundMessage(),
  409: "409 Conflict",
  429: "429 Too Many Requests",
  500: "500 Internal Server Error",
  501: "501 Not Implemented",
  503: "503 Service Unavailable",
};

export interface HttpError {
  status: number;
  body: Record<string, unknown>;
}

type MaybeGrpcError = { code?: unknown; details?: unknown; metadata?: { get(key: string): unknown[] } };

/**
 * Turns whatever a gRPC call rejected with into the HTTP answer. Bodies come from the
 * service (GitLab-shaped) when it sent one; transport failures become 503 and anything
 * unexpected a bare 500, never a stack trace.
 */
export function httpErrorFromGrpc(err: unknown): HttpError {
  if (err instanceof ServiceError) {
    const s = err.httpStatus ?? HTTP_BY_CODE[err.code] ?? 500;
    return { status: s, body: err.body as Record<string, unknown> };
  }
  const e = (err ?? {}) as MaybeGrpcError;
  const code = typeof e.code === "number" ? e.code : status.UNKNOWN;
  const override = Number(e.metadata?.get(HTTP_STATUS_KEY)?.[0]);
  const httpStatus = Number.isInteger(override) && override >= 400 ? override : (HTTP_BY_CODE[code] ?? 500);
  // Transport-level failures never carry a service body: the service was not reached.
  const rawBody = httpStatus === 503 ? undefined : (e.metadata?.get(ERROR_BODY_KEY)?.[0] ?? e.metadata?.get(LEGACY_ERROR_BODY_KEY)?.[0]);
  if (typeof rawBody === "string" || Buffer.isBuffer(rawBody)) {
    try {
      const body: unknown = JSON.parse(rawBody.toString());
      if (body && typeof body === "object" && !Array.isArray(body)) return { status: httpStatus, body: body as Record<string, unknown> };
    } catch {
      /* fall through to the default body */
    }
  }
  return { status: httpStatus, body: { message: DEFAULT_MESSAGES[httpStatus] ?? `${httpStatus}` } };
}

export function httpStatusForCode(code: status): number {
  return HTTP_BY_CODE[code] ?? 500;
}
