import * as grpc from "@grpc/grpc-js";
import type { MethodDefinition } from "@grpc/proto-loader";
import type { Logger } from "@quarry/logger";
import { HealthImplementation } from "grpc-health-check";
import { ServiceError } from "./errors.ts";

/** Per-call context handed to every handler. */
export interface CallContext {
  metadata: grpc.Metadata;
  /** The gateway's request id, for correlating logs across services. */
  requestId: string | undefined;
  log: Logger;
}

/** Async handler map derived from a generated service definition: request in, response out. */
export type AsyncHandlers<D> = {
  // Skip the index signature inherited from ServiceDefinition; MethodDefinition is invariant,
  // so the slots we do not infer must be `any`.
  [K in keyof D as string extends K ? never : K]: D[K] extends MethodDefinition<any, infer ResIn, infer ReqOut, any>
    ? (request: ReqOut, ctx: CallContext) => Promise<ResIn>
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
  readonly health: HealthImplementation;
}

const MAX_MESSAGE = 64 * 1024 * 1024;

export function createGrpcServer(log: Logger): GrpcServer {
  const server = new grpc.Server({
    "grpc.max_receive_message_length": MAX_MESSAGE,
    "grpc.max_send_message_length": MAX_MESSAGE,
  });
  const health = new HealthImplementation({ "": "NOT_SERVING" });
  health.addToServer(server);
  const names: string[] = [];

  return {
    health,
    addService(name, definition, handlers) {
      const impl: grpc.UntypedServiceImplementation = {};
      for (const method of Object.keys(definition)) {
        const handler = (handlers as Record<string, (req: unknown, ctx: CallContext) => Promise<unknown>>)[method];
        if (!handler) throw new Error(`${name}.${method} has no handler`);
        impl[method] = wrapUnary(`${name}/${method}`, handler, log);
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

function wrapUnary(
  fullName: string,
  handler: (req: unknown, ctx: CallContext) => Promise<unknown>,
  log: Logger,
): grpc.handleUnaryCall<unknown, unknown> {
  return (call, callback) => {
    const started = process.hrtime.bigint();
    const requestId = call.metadata.get("x-request-id")[0]?.toString();
    const ctx: CallContext = { metadata: call.metadata, requestId, log: log.child({ rpc: fullName, requestId }) };
    handler(call.request, ctx).then(
      (response) => {
        ctx.log.debug({ ms: Number(process.hrtime.bigint() - started) / 1e6 }, "rpc ok");
        callback(null, response);
      },
      (err: unknown) => {
        if (err instanceof ServiceError) {
          ctx.log.debug({ code: err.code, msg: err.message }, "rpc refused");
          callback(err.toGrpc());
          return;
        }
        // Unexpected: log the detail here, send the caller nothing but a generic INTERNAL.
        ctx.log.error({ err }, "rpc failed");
        callback({ code: grpc.status.INTERNAL, details: "internal error" });
      },
    );
  };
}
