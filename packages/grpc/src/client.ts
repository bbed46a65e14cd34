import * as grpc from "@grpc/grpc-js";
import type { MethodDefinition } from "@grpc/proto-loader";
import { type CallRecorder, type Metrics, processMetrics, secondsSince } from "./metrics.ts";
import { currentRequestId } from "./request-context.ts";

export interface CallOptions {
  /** Overrides the client's default deadline for this call. */
  deadlineMs?: number;
  /** Propagated as `x-request-id` metadata (default: the request id of the call being served, request-context.ts). */
  requestId?: string;
}

/** The `x-request-id` metadata of a call: the caller's id, else the current request's. */
function callMetadata(requestId: string | undefined): grpc.Metadata {
  const metadata = new grpc.Metadata();
  const id = requestId ?? currentRequestId();
  if (id) metadata.set("x-request-id", id);
  return metadata;
}

/** `/quarry.ci.v1.CiService/GetJob` → the service and method labels of the client metrics. */
function methodLabels(path: string): [string, string] {
  const slash = path.lastIndexOf("/");
  return [path.slice(1, slash), path.slice(slash + 1)];
}

/** Promise-returning client derived from a generated service definition. */
export type PromiseClient<D> = {
  [K in keyof D as string extends K ? never : K]: D[K] extends MethodDefinition<infer ReqIn, infer _ReqOut, infer _ResIn, infer ResOut>
    ? (request: ReqIn, options?: CallOptions) => Promise<ResOut>
    : never;
} & { readonly raw: grpc.Client; close(): void };

/** A method of a generated grpc-js client, looked up by name. */
type RawMethod = (...args: unknown[]) => unknown;

type ServiceCtor<D> = { new (address: string, credentials: grpc.ChannelCredentials, options?: object): grpc.Client; service: D };

export interface ClientOptions {
  /** Default deadline per call; a slow or unreachable service fails with DEADLINE_EXCEEDED/UNAVAILABLE within it. */
  deadlineMs: number;
  /** Counts and times the calls (default: the process's metrics, when its entry turned them on). */
  metrics?: Metrics;
}

const CHANNEL_OPTIONS = {
  "grpc.max_receive_message_length": 64 * 1024 * 1024,
  "grpc.max_send_message_length": 64 * 1024 * 1024,
  // Reconnect quickly after a peer restarts instead of backing off for minutes.
  "grpc.initial_reconnect_backoff_ms": 200,
  "grpc.max_reconnect_backoff_ms": 2000,
};

/** Adds the current request id to a call made without one (the raw streaming clients' calls). */
const requestIdInterceptor: grpc.Interceptor = (options, nextCall) =>
  new grpc.InterceptingCall(nextCall(options), {
    start(metadata, listener, next) {
      const id = currentRequestId();
      if (id && metadata.get("x-request-id").length === 0) metadata.set("x-request-id", id);
      next(metadata, listener);
    },
  });

/**
 * The generated grpc-js client itself, for services with streaming RPCs (which the promise
 * client leaves out), on the same channel options.
 */
export function createStreamingClient<C extends grpc.Client>(
  ctor: { new (address: string, credentials: grpc.ChannelCredentials, options?: object): C },
  address: string,
): C {
  return new ctor(address, grpc.credentials.createInsecure(), { ...CHANNEL_OPTIONS, interceptors: [requestIdInterceptor] });
}

/**
 * Creates a typed client whose unary methods return promises and always carry a deadline.
 * Calls fail fast (no wait-for-ready) when the peer is down, so the gateway can answer 503.
 */
export function createClient<D extends grpc.ServiceDefinition>(ctor: ServiceCtor<D>, address: string, options: ClientOptions): PromiseClient<D> {
  const raw = new ctor(address, grpc.credentials.createInsecure(), CHANNEL_OPTIONS);
  const metrics = options.metrics ?? processMetrics();
  const client: Record<string, unknown> = {
    raw,
    close: () => raw.close(),
  };
  for (const [method, def] of Object.entries(ctor.service)) {
    if (def.requestStream || def.responseStream) continue;
    const fn = (raw as unknown as Record<string, RawMethod>)[method]!.bind(raw);
    const record: CallRecorder | undefined = metrics?.grpcClientCall(...methodLabels(def.path));
    client[method] = (request: unknown, callOptions: CallOptions = {}) =>
      new Promise((resolve, reject) => {
        const metadata = callMetadata(callOptions.requestId);
        const deadline = Date.now() + (callOptions.deadlineMs ?? options.deadlineMs);
        const started = record ? process.hrtime.bigint() : 0n;
        fn(request, metadata, { deadline }, (err: grpc.ServiceError | null, response: unknown) => {
          record?.(err ? err.code : grpc.status.OK, secondsSince(started));
          if (err) reject(err);
          else resolve(response);
        });
      });
  }
  return client as PromiseClient<D>;
}

/**
 * Starts a server-streaming call (createClient leaves these out), with a deadline. The returned
 * stream is async-iterable; a refusal arrives as a gRPC error from the iteration.
 */
export function callServerStream<Res>(
  client: { readonly raw: grpc.Client },
  method: string,
  request: unknown,
  options: CallOptions & { deadlineMs: number },
): grpc.ClientReadableStream<Res> {
  const fn = (client.raw as unknown as Record<string, RawMethod | undefined>)[method];
  if (!fn) throw new Error(`no such method: ${method}`);
  const metadata = callMetadata(options.requestId);
  return fn.call(client.raw, request, metadata, { deadline: Date.now() + options.deadlineMs }) as grpc.ClientReadableStream<Res>;
}

/**
 * Makes a client-streaming call: writes every message of `requests` (respecting flow control),
 * half-closes, and resolves with the response. If `requests` throws, the call is cancelled and
 * the error rethrown, so the server never treats a partial upload as complete.
 */
export async function callClientStream<Req, Res>(
  client: { readonly raw: grpc.Client },
  method: string,
  requests: AsyncIterable<Req>,
  options: CallOptions & { deadlineMs: number },
): Promise<Res> {
  const fn = (client.raw as unknown as Record<string, RawMethod | undefined>)[method];
  if (!fn) throw new Error(`no such method: ${method}`);
  const metadata = callMetadata(options.requestId);
  let call!: grpc.ClientWritableStream<Req>;
  const response = new Promise<Res>((resolve, reject) => {
    call = fn.call(client.raw, metadata, { deadline: Date.now() + options.deadlineMs }, (err: grpc.ServiceError | null, res: Res) =>
      err ? reject(err) : resolve(res),
    ) as grpc.ClientWritableStream<Req>;
  });
  try {
    for await (const message of requests) {
      if (!call.write(message)) await new Promise((resolve) => call.once("drain", resolve));
    }
  } catch (err) {
    call.cancel();
    response.catch(() => {});
    throw err;
  }
  call.end();
  return response;
}
