import { Metadata, status, type ServiceError as GrpcServiceError } from "@grpc/grpc-js";
import { notFoundMessage } from "@quarry/gitlab";

/**
 * Binary metadata key carrying the GitLab-shaped JSON error body (UTF-8) across the gRPC boundary.
 * Binary (`-bin`) because an error may echo any text the caller sent: grpc-js refuses non-ASCII
 * in string metadata, and that refusal used to escape the error path itself.
 */
export const ERROR_BODY_KEY = "quarry-error-body-bin";
/** The earlier ASCII-only key; still read so a newer gateway understands an older service. */
export const LEGACY_ERROR_BODY_KEY = "quarry-error-body";
/** Metadata key carrying an explicit HTTP status where the code alone is not enough (405, 409 …). */
export const HTTP_STATUS_KEY = "quarry-http-status";

/**
 * How much of any one string an error body keeps. Messages echo names the caller chose (a ref,
 * a path); an unbounded echo of a 100 KB value used to overflow the HTTP/2 trailer limits and
 * stall the shared connection for every other caller.
 */
export const MAX_ECHOED_CHARS = 1024;
/** How many elements of any one array an error body keeps (validation lists). */
const MAX_ECHOED_ITEMS = 50;
/** The gRPC status message (`grpc-message` trailer) is only for logs: kept short. */
const MAX_DETAILS_CHARS = 512;

export type ErrorBody = { message: unknown } | { error: string; [k: string]: unknown };

/** A string that can be sent anywhere: lone surrogates replaced, cut to `max` characters. */
export function boundedText(text: string, max = MAX_ECHOED_CHARS): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return cut.replace(LONE_SURROGATE, "\uFFFD");
}

/** A UTF-16 surrogate without its other half (not encodable as UTF-8). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The body with every string bounded and every array cut, recursively (plain JSON values only). */
function boundedBody(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return boundedText(value);
  if (value === null || typeof value !== "object") return value;
  if (depth > 8) return null;
  if (Array.isArray(value)) return value.slice(0, MAX_ECHOED_ITEMS).map((v) => boundedBody(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, MAX_ECHOED_ITEMS)) out[boundedText(k)] = boundedBody(v, depth + 1);
  return out;
}

/**
 * The one error type handlers throw. `code` is the gRPC status; `body` is what the gateway
 * returns to the HTTP client (bounded: see MAX_ECHOED_CHARS); `httpStatus` overrides the
 * default mapping of `code`.
 */
export class ServiceError extends Error {
  readonly body: ErrorBody;

  constructor(
    readonly code: status,
    body: ErrorBody,
    readonly httpStatus?: number,
  ) {
    const bounded = boundedBody(body) as ErrorBody;
    const message = (bounded as { message?: unknown }).message;
    super(typeof message === "string" ? message : JSON.stringify(bounded));
    this.name = "ServiceError";
    this.body = bounded;
  }

  /** The status grpc-js sends. Never throws: whatever the body holds, it travels as bytes. */
  toGrpc(): Partial<GrpcServiceError> {
    const metadata = new Metadata();
    metadata.set(ERROR_BODY_KEY, Buffer.from(JSON.stringify(this.body), "utf8"));
    if (this.httpStatus) metadata.set(HTTP_STATUS_KEY, String(this.httpStatus));
    // grpc-js percent-encodes the details with encodeURI, which throws on a lone surrogate.
    return { code: this.code, details: boundedText(this.message, MAX_DETAILS_CHARS), metadata };
  }
}

/** Whether a failed call answered NOT_FOUND (callers that treat a missing thing as null). */
export const isNotFound = (err: unknown): boolean => (err as { code?: number } | null)?.code === status.NOT_FOUND;

/** `404 <What> Not Found`, GitLab's wording (`notFound("Project")`); `404 Not Found` without `what`. */
export const notFound = (what?: string) => new ServiceError(status.NOT_FOUND, { message: notFoundMessage(what) });
export const forbidden = (message = "403 Forbidden") => new ServiceError(status.PERMISSION_DENIED, { message });
export const unauthenticated = () => new ServiceError(status.UNAUTHENTICATED, { message: "401 Unauthorized" });
/** 400 with `{"message": …}`: GitLab's validation errors (a string or `{field: [reasons]}`). */
export const badRequest = (message: unknown) => new ServiceError(status.INVALID_ARGUMENT, { message });
/** 400 with `{"error": …}`: GitLab's parameter errors (`"name is missing"`). */
export const paramError = (error: string) => new ServiceError(status.INVALID_ARGUMENT, { error });
export const conflict = (message: unknown) => new ServiceError(status.ALREADY_EXISTS, { message });
/** 409 for a state that forbids the change, e.g. removing the last Owner. */
export const failedPrecondition = (message: unknown, httpStatus = 409) => new ServiceError(status.FAILED_PRECONDITION, { message }, httpStatus);
