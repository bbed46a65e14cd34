import { once } from "node:events";
import * as grpc from "@grpc/grpc-js";
import type { MethodDefinition } from "@grpc/proto-loader";
import type { Logger } from "@quarry/logger";
import { HealthImplementation } from "grpc-health-check";
import { ServiceError } from "./errors.ts";
import { type CallRecorder, type Metrics, secondsSince } from "./metrics.ts";
import { acceptRequestId, withRequestId } from "./request-context.ts";

/** Per-call context handed to every handler. */
export interface CallContext {
  metadata: grpc.Metadata;
  /** The gateway's request id, for correlating logs across services. */
  requestId: string | undefined;
  /** The service's logger with `rpc` and `request_id` (made on first use: most calls log nothing). */
  readonly log: Logger;
}

/**
 * A server-streaming handler: the responses it yields are sent in order (respecting flow
 * control); a ServiceError thrown before or between them ends the call with that status. When
 * the caller goes away the iterator is returned, so `finally` blocks can stop their work.
 */
export interface ServerStreamHandler<Req, Res> {
  serverStream: (request: Req, ctx: CallContext) => AsyncIterable<Res>;
}

/** Marks a handler as server-streaming (generated definitions type both kinds alike). */
export function serverStream<Req, Res>(fn: (request: Req, ctx: CallContext) => AsyncIterable<Res>): ServerStreamHandler<Req, Res> {
  return { serverStream: fn };
}

/**
 * A client-streaming handler: it reads the caller's messages from `requests` (ending when the
 * caller half-closes) and resolves with the one response.
 */
export interface ClientStreamHandler<Req, Res> {
  clientStream: (requests: AsyncIterable<Req>, ctx: CallContext) => Promise<Res>;
}

/** Marks a handler as client-streaming. */
export function clientStream<Req, Res>(fn: (requests: AsyncIterable<Req>, ctx: CallContext) => Promise<Res>): ClientStreamHandler<Req, Res> {
  return { clientStream: fn };
}

/**
 * Async handler map derived from a generated service definition: request in, response out, or
 * `serverStream(…)` for methods declared `returns (stream …)`, `clientStream(…)` for methods taking
 * `(stream …)` (checked when registering).
 */
export type AsyncHandlers<D> = {
  // Skip the index signature inherited from ServiceDefinition; MethodDefinition is invariant,
  // so the slots we do not use are inferred too (and ignored).
  [K in keyof D as string extends K ? never : K]: D[K] extends MethodDefinition<infer _ReqIn, infer ResIn, infer ReqOut, infer _ResOut>
    ? ((request: ReqOut, ctx: CallContext) => Promise<ResIn>) | ServerStreamHandler<ReqOut, ResIn> | ClientStreamHandler<ReqOut, ResIn>
    : never;
};

export interface GrpcServer {
  /** Registers a service's unary handlers; its health status becomes SERVING. */
  addService<D extends grpc.ServiceDefinition>(name: string, definition: D, handlers: AsyncHandlers<D>): void;
  /** Registers raw grpc-js handlers (streaming RPCs). */
  addRawService(name: string, definition: grpc.ServiceDefinition, handlers: grpc.UntypedServiceImplementation): void;
  /** Binds (port 0 picks a free one) and resolves with the bound address. */
  listen(address: string): Promise<string>;
  /** Marks NOT_SERVING, then drains in-flight calls (forcing after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
  /**
   * Something the service cannot serve without (its database): a health Check of a serving
   * service runs every probe and answers NOT_SERVING when one fails or takes over 2 s.
   */
  addDependencyCheck(name: string, probe: () => Promise<unknown>): void;
  readonly health: HealthImplementation;
}

const DEPENDENCY_CHECK_MS = 2_000;

/** Resolves when `probe` does within DEPENDENCY_CHECK_MS; rejects otherwise. */
function withinDeadline(name: string, probe: () => Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} check timed out`)), DEPENDENCY_CHECK_MS);
  });
  return Promise.race([Promise.resolve().then(probe), timeout]).then(
    () => clearTimeout(timer),
    (err: unknown) => {
      clearTimeout(timer);
      throw err;
    },
  );
}

const MAX_MESSAGE = 64 * 1024 * 1024;

export interface GrpcServerOptions {
  /** Counts and times every call of the services added with `addService` (not health checks). */
  metrics?: Metrics;
}

export function createGrpcServer(log: Logger, options: GrpcServerOptions = {}): GrpcServer {
  const { metrics } = options;
  const server = new grpc.Server({
    "grpc.max_receive_message_length": MAX_MESSAGE,
    "grpc.max_send_message_length": MAX_MESSAGE,
  });
  const health = new HealthImplementation({ "": "NOT_SERVING" });
  const dependencies = new Map<string, () => Promise<unknown>>();
  // The library's Check answers from its status map alone; a serving answer is confirmed by the
  // dependency probes at the time of the call (Watch and List stay as the library has them).
  health.addToServer({
    addService: (definition: grpc.ServiceDefinition, impl: grpc.UntypedServiceImplementation) => {
      const check = impl.check as grpc.handleUnaryCall<{ service: string }, { status: string }>;
      server.addService(definition, {
        ...impl,
        check: (call: grpc.ServerUnaryCall<{ service: string }, { status: string }>, callback: grpc.sendUnaryData<{ status: string }>) =>
          check(call, (err, res) => {
            if (err || res?.status !== "SERVING" || dependencies.size === 0) return callback(err, res);
            Promise.all([...dependencies].map(([name, probe]) => withinDeadline(name, probe))).then(
              () => callback(null, res),
              (failure: unknown) => {
                log.warn({ err: failure }, "dependency check failed");
                callback(null, { status: "NOT_SERVING" });
              },
            );
          }),
      });
    },
  } as unknown as grpc.Server);
  const names: string[] = [];

  return {
    health,
    addDependencyCheck(name, probe) {
      dependencies.set(name, probe);
    },
    addService(name, definition, handlers) {
      const impl: grpc.UntypedServiceImplementation = {};
      for (const [method, def] of Object.entries(definition)) {
        const handler = (handlers as Record<string, AnyHandler | undefined>)[method];
        if (!handler) throw new Error(`${name}.${method} has no handler`);
        const kind = typeof handler === "function" ? "unary" : "serverStream" in handler ? "serverStream" : "clientStream";
        const expected = def.requestStream ? (def.responseStream ? "bidi" : "clientStream") : def.responseStream ? "serverStream" : "unary";
        if (kind !== expected) throw new Error(`${name}.${method}: handler kind does not match the definition`);
        const call: CallSite = { fullName: `${name}/${method}`, log, record: metrics?.grpcServerCall(name, method) };
        impl[method] =
          typeof handler === "function"
            ? wrapUnary(call, handler)
            : "serverStream" in handler
              ? wrapServerStream(call, handler.serverStream)
              : wrapClientStream(call, handler.clientStream);
      }
      server.addService(definition, impl);
      names.push(name);
    },
    addRawService(name, definition, handlers) {
      server.addService(definition, handlers);
      names.push(name);
    },
    listen(address) {
      return new Promise((resolve, reject) => {
        server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err, port) => {
          if (err) return reject(err);
          for (const n of names) health.setStatus(n, "SERVING");
          health.setStatus("", "SERVING");
          resolve(address.replace(/:\d+$/, `:${port}`));
        });
      });
    },
    stop(graceMs = 5000) {
      for (const n of names) health.setStatus(n, "NOT_SERVING");
      health.setStatus("", "NOT_SERVING");
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        timer.unref();
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

type UnaryFn = (req: unknown, ctx: CallContext) => Promise<unknown>;
type AnyHandler = UnaryFn | ServerStreamHandler<unknown, unknown> | ClientStreamHandler<unknown, unknown>;

/** What every call of one method shares. */
interface CallSite {
  fullName: string;
  log: Logger;
  /** Set when the server has metrics. */
  record: CallRecorder | undefined;
}

function callContext(site: CallSite, metadata: grpc.Metadata): CallContext {
  const raw = metadata.get("x-request-id")[0];
  const requestId = acceptRequestId(typeof raw === "string" ? raw : raw?.toString());
  let log: Logger | undefined;
  return {
    metadata,
    requestId,
    get log() {
      log ??= site.log.child({ rpc: site.fullName, request_id: requestId });
      return log;
    },
  };
}

function wrapUnary(site: CallSite, handler: UnaryFn): grpc.handleUnaryCall<unknown, unknown> {
  return (call, callback) => {
    const started = process.hrtime.bigint();
    const ctx = callContext(site, call.metadata);
    // Calls the handler makes to other services carry the request id on (request-context.ts).
    answer(
      withRequestId(ctx.requestId, () => invoke(handler, call.request, ctx)),
      site,
      ctx,
      started,
      callback,
    );
  };
}

function wrapClientStream(
  site: CallSite,
  handler: (requests: AsyncIterable<unknown>, ctx: CallContext) => Promise<unknown>,
): grpc.handleClientStreamingCall<unknown, unknown> {
  return (call, callback) => {
    const started = process.hrtime.bigint();
    const ctx = callContext(site, call.metadata);
    answer(
      withRequestId(ctx.requestId, () => invoke(handler, call, ctx)),
      site,
      ctx,
      started,
      callback,
    );
  };
}

/** The handler's promise; a synchronous throw becomes a rejection like any other failure. */
function invoke<R>(handler: (request: R, ctx: CallContext) => Promise<unknown>, request: R, ctx: CallContext): Promise<unknown> {
  try {
    return handler(request, ctx);
  } catch (err) {
    return Promise.reject(err);
  }
}

/** The bare status sent for anything unexpected: the detail stays in the service's log. */
const INTERNAL: Partial<grpc.ServiceError> = { code: grpc.status.INTERNAL, details: "internal error" };

/**
 * The status a failed handler ends its call with: a ServiceError's own, or a bare INTERNAL.
 * Never throws, so that no handler's failure can escape as an unhandled rejection and end the
 * process (one process serves every service in the embedded mode).
 */
export function failureStatus(err: unknown, log: Logger): Partial<grpc.ServiceError> {
  try {
    if (err instanceof ServiceError) {
      log.debug({ code: err.code, msg: err.message }, "rpc refused");
      return err.toGrpc();
    }
    // Unexpected: log the detail here, send the caller nothing but a generic INTERNAL.
    log.error({ err }, "rpc failed");
  } catch (failure) {
    safeLog(log, failure);
  }
  return INTERNAL;
}

/** Runs `send`; a throw from grpc-js (a status it cannot encode, a closed stream) is logged, not raised. */
function sendSafely(log: Logger, send: () => void): void {
  try {
    send();
  } catch (err) {
    safeLog(log, err);
  }
}

function safeLog(log: Logger, err: unknown): void {
  try {
    log.error({ err }, "rpc status could not be sent");
  } catch {
    // A logger that throws has nothing left to tell; the process must go on.
  }
}

/** Sends a unary answer: the response, a ServiceError's status, or a bare INTERNAL. */
function answer(result: Promise<unknown>, site: CallSite, ctx: CallContext, started: bigint, callback: grpc.sendUnaryData<unknown>): void {
  result.then(
    (response) => {
      site.record?.(grpc.status.OK, secondsSince(started));
      if (site.log.isLevelEnabled("debug")) ctx.log.debug({ ms: Number(process.hrtime.bigint() - started) / 1e6 }, "rpc ok");
      sendSafely(ctx.log, () => callback(null, response));
    },
    (err: unknown) => {
      const failure = failureStatus(err, ctx.log);
      site.record?.(failure.code ?? grpc.status.UNKNOWN, secondsSince(started));
      sendSafely(ctx.log, () => {
        try {
          callback(failure);
        } catch {
          callback(INTERNAL); // the status itself could not be sent: at least end the call
        }
      });
    },
  );
}

function wrapServerStream(
  site: CallSite,
  handler: (req: unknown, ctx: CallContext) => AsyncIterable<unknown>,
): grpc.handleServerStreamingCall<unknown, unknown> {
  return (call) => {
    const started = process.hrtime.bigint();
    const ctx = callContext(site, call.metadata);
    const cancelled = once(call, "cancelled").then(() => "cancelled" as const);
    cancelled.catch(() => {});
    const record = (code: number) => site.record?.(code, secondsSince(started));
    void withRequestId(ctx.requestId, async () => {
      let iterator: AsyncIterator<unknown> | undefined;
      try {
        iterator = handler(call.request, ctx)[Symbol.asyncIterator]();
        for (;;) {
          const next = await Promise.race([iterator.next(), cancelled]);
          if (next === "cancelled" || next.done) break;
          if (!call.write(next.value) && (await Promise.race([once(call, "drain"), cancelled])) === "cancelled") break;
        }
        if (call.cancelled) {
          record(grpc.status.CANCELLED);
          await iterator.return?.();
        } else {
          record(grpc.status.OK);
          call.end();
        }
      } catch (err) {
        if (call.cancelled) return record(grpc.status.CANCELLED);
        const failure = failureStatus(err, ctx.log);
        record(failure.code ?? grpc.status.UNKNOWN);
        sendSafely(ctx.log, () => call.emit("error", failure));
      }
    }).catch((err: unknown) => safeLog(ctx.log, err));
  };
}
