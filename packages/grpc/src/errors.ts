import { Metadata, status, type ServiceError as GrpcServiceError } from "@grpc/grpc-js";

/** Metadata key carrying the GitLab-shaped JSON error body across the gRPC boundary. */
export const ERROR_BODY_KEY = "quarry-error-body";
/** Metadata key carrying an explicit HTTP status where the code alone is not enough (405, 409 …). */
export const HTTP_STATUS_KEY = "quarry-http-status";

export type ErrorBody = { message: unknown } | { error: string; [k: string]: unknown };

/**
 * The one error type handlers throw. `code` is the gRPC status; `body` is what the gateway
 * returns to the HTTP client; `httpStatus` overrides the default mapping of `code`.
 */
export class ServiceError extends Error {
  constructor(
    readonly code: status,
    readonly body: ErrorBody,
    readonly httpStatus?: number,
  ) {
    super(typeof (body as { message?: unknown }).message === "string" ? (body as { message: string }).message : JSON.stringify(body));
    this.name = "ServiceError";
  }

  toGrpc(): Partial<GrpcServiceError> {
    const metadata = new Metadata();
    metadata.set(ERROR_BODY_KEY, JSON.stringify(this.body));
    if (this.httpStatus) metadata.set(HTTP_STATUS_KEY, String(this.httpStatus));
    return { code: this.code, details: this.message, metadata };
  }
}

/** `404 <What> Not Found`, GitLab's wording (`notFound("Project")`). */
/** Whether a failed call answered NOT_FOUND (callers that treat a missing thing as null). */
export const isNotFound = (err: unknown): boolean => (err as { code?: number } | null)?.code === status.NOT_FOUND;

export const notFound = (what: string) => new ServiceError(status.NOT_FOUND, { message: `404 ${what} Not Found` });
export const forbidden = (message = "403 Forbidden") => new ServiceError(status.PERMISSION_DENIED, { message });
export const unauthenticated = () => new ServiceError(status.UNAUTHENTICATED, { message: "401 Unauthorized" });
/** 400 with `{"message": …}`: GitLab's validation errors (a string or `{field: [reasons]}`). */
export const badRequest = (message: unknown) => new ServiceError(status.INVALID_ARGUMENT, { message });
/** 400 with `{"error": …}`: GitLab's parameter errors (`"name is missing"`). */
export const paramError = (error: string) => new ServiceError(status.INVALID_ARGUMENT, { error });
export const conflict = (message: unknown) => new ServiceError(status.ALREADY_EXISTS, { message });
/** 409 for a state that forbids the change, e.g. removing the last Owner. */
export const failedPrecondition = (message: unknown, httpStatus = 409) =>
  new ServiceError(status.FAILED_PRECONDITION, { message }, httpStatus);
