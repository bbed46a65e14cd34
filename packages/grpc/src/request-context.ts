import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The request id of the call being served (gateway: the HTTP request; services: the gRPC call),
 * so that calls made on its behalf carry it on without every function passing it along.
 */
const requestIds = new AsyncLocalStorage<string>();

/** Runs `fn` with `requestId` as the current request id (no id: `fn` runs as it is). */
export function withRequestId<T>(requestId: string | undefined, fn: () => T): T {
  return requestId ? requestIds.run(requestId, fn) : fn();
}

/** The current request id, if the code runs on behalf of one. */
export function currentRequestId(): string | undefined {
  return requestIds.getStore();
}

/**
 * A request id as Rails' ActionDispatch::RequestId (behind GitLab's correlation ids) keeps it:
 * word characters, `-` and `@`, at most 255 of them. Anything else (empty, too long, spaces,
 * quotes, control characters that would forge log lines) is not taken: undefined.
 */
const SANE_REQUEST_ID = /^[\w\-@]{1,255}$/;

export function acceptRequestId(value: string | undefined): string | undefined {
  return value !== undefined && SANE_REQUEST_ID.test(value) ? value : undefined;
}
