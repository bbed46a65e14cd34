import { status } from "@grpc/grpc-js";
import { httpErrorFromGrpc, ServiceError, type ErrorBody } from "@quarry/grpc";

/** Refusals of identity-service that are the caller's answer too (404 invisible, 403 too low a role, 400 bad input). */
const RELAYED = new Set<number>([status.NOT_FOUND, status.PERMISSION_DENIED, status.INVALID_ARGUMENT, status.UNAUTHENTICATED]);

/**
 * Awaits a call to another service, passing its refusals on unchanged (status and GitLab body);
 * anything else (unreachable, internal) stays an internal failure of this call.
 */
export async function relayRefusals<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === "number" && RELAYED.has(code)) throw new ServiceError(code, httpErrorFromGrpc(err).body as ErrorBody);
    throw err;
  }
}
