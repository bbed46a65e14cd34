import { OutboxRelay, type EventBus, type Subscription } from "@quarry/bus";
import { applyMigrations, type Migration } from "@quarry/database";
import { createGrpcServer, type GrpcServer, type Metrics, processMetrics } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { createPrisma, type PrismaClientClass, type PrismaLike } from "./prisma.ts";

/** Something started in the background (a worker loop, a pool) that stops on its own. */
export interface Stoppable {
  stop(): Promise<unknown> | unknown;
}

/** What `deps()` gets to wire the handlers' dependencies with. */
export interface ServiceContext<C extends PrismaLike> {
  prisma: C;
  bus: EventBus;
  log: Logger;
  /**
   * The service's outbox relay (created on the first call, on `prisma` and `bus`); the skeleton
   * starts it after the bus subscriptions and stops it before them.
   */
  outbox(): OutboxRelay;
  /**
   * Registers, during `deps()`, the close of something it created (a gRPC client, a process pool). Closes run
   * in reverse registration order, after the server has stopped and before Prisma disconnects,
   * on `stop()` and when the start fails half-way.
   */
  onStop(close: () => Promise<unknown> | unknown): void;
}

/** A generated `PrismaClient` class; the skeleton hands its handlers an instance (`InstanceType<K>`). */
export type AnyPrismaClientClass = PrismaClientClass<PrismaLike>;

export interface ServiceDefinition<K extends AnyPrismaClientClass, D> {
  /** e.g. "repo-service": the "listening" log line says it. */
  name: string;
  databaseUrl: string;
  /** host:port to serve on; port 0 takes a free one (see RunningService.address). */
  grpcAddress: string;
  bus: EventBus;
  log: Logger;
  /** The service's `src/generated/migrations.ts`; applied under the migration advisory lock. */
  migrations: Migration[];
  /** The service's generated `PrismaClient` class (`src/generated/prisma/client.ts`). */
  PrismaClient: K;
  /** Most pooled connections of the Prisma client (default 10). */
  poolSize?: number;
  /** Work after the migrations and before Prisma (repo-service: storage directory, stale git locks). */
  prepare?(): Promise<void>;
  /** Builds the handlers' dependencies; register what needs closing with `ctx.onStop`. */
  deps(ctx: ServiceContext<InstanceType<K>>): D | Promise<D>;
  /** Adds the service's gRPC services (`server.addService` / `addRawService`) with their handlers. */
  handlers(server: GrpcServer, deps: D): void;
  /** Bus subscriptions and durable consumers; unsubscribed on stop (durables keep their position). */
  subscribe?(deps: D): Promise<Subscription[]>;
  /** Background workers, started last before serving; stopped right after the server. */
  workers?(deps: D): Promise<Stoppable[]> | Stoppable[];
  /** Extra fields of the "listening" log line. */
  logFields?(deps: D): Record<string, unknown>;
  /**
   * Where the service's gRPC calls are counted and its gauges registered: default the process's
   * metrics (runServiceProcess turns them on from METRICS_PORT; the embedded mode has none),
   * `false` for none.
   */
  metrics?: Metrics | false;
  /** Scrape-time gauges (queue depths, pool use), registered when the service has metrics. */
  gauges?(metrics: Metrics, deps: D, prisma: InstanceType<K>): void;
}

export interface RunningService<C extends PrismaLike, D> {
  /** The address actually bound (the port filled in when 0 was asked for). */
  address: string;
  prisma: C;
  deps: D;
  /** Stops everything in the reverse order of the start. */
  stop(): Promise<void>;
}

/**
 * The start-up every domain service shares, in this order:
 * 1. migrations (packages/database's applier, under the advisory lock), then `prepare()`;
 * 2. the Prisma client (the service's own generated class);
 * 3. `deps()`: clients of other services and the like;
 * 4. the gRPC server with the health service and the "database" dependency check, then `handlers()`;
 * 5. `subscribe()`: bus subscriptions and consumers;
 * 6. the outbox relay, when `deps()` asked for one;
 * 7. `workers()`;
 * 8. listen: the server takes calls (and health says SERVING) only once everything behind it runs.
 *
 * `stop()` undoes this in reverse: the server stops taking calls and drains, then workers, outbox
 * relay, subscriptions, the closes registered in `deps()` and last Prisma. A start that fails at
 * any step undoes the steps already done the same way and rethrows.
 */
export async function startService<K extends AnyPrismaClientClass, D>(def: ServiceDefinition<K, D>): Promise<RunningService<InstanceType<K>, D>> {
  const { log } = def;
  await applyMigrations(def.databaseUrl, def.migrations, { log: (m) => log.info(m) });
  await def.prepare?.();

  // Everything started from here on is undone in reverse, by stop() or by a failed start.
  const undo: (() => Promise<unknown> | unknown)[] = [];
  const unwind = async () => {
    while (undo.length) {
      const step = undo.pop()!;
      try {
        await step();
      } catch (err) {
        log.warn({ err }, `${def.name}: stop step failed`);
      }
    }
  };

  try {
    // K is a class whose instances are InstanceType<K>; TypeScript cannot see that through a generic K.
    const prisma = createPrisma(def.PrismaClient as unknown as PrismaClientClass<InstanceType<K>>, def.databaseUrl, def.poolSize);
    undo.push(() => prisma.$disconnect());

    let outbox: OutboxRelay | undefined;
    const deps = await def.deps({
      prisma,
      bus: def.bus,
      log,
      outbox: () => (outbox ??= new OutboxRelay(prisma, def.bus, log)),
      onStop: (close) => undo.push(close),
    });

    const metrics = def.metrics === false ? undefined : (def.metrics ?? processMetrics());
    if (metrics) def.gauges?.(metrics, deps, prisma);
    const server = createGrpcServer(log, { metrics });
    // Readiness (the gateway's /-/readiness) asks this service's health: it serves only with its database.
    server.addDependencyCheck("database", () => prisma.$queryRaw`SELECT 1`);
    def.handlers(server, deps);

    const subscriptions = (await def.subscribe?.(deps)) ?? [];
    undo.push(() => Promise.all(subscriptions.map((s) => s.unsubscribe())));

    if (outbox) {
      const relay = outbox;
      relay.start();
      undo.push(() => relay.stop());
    }

    // One step each: a worker whose stop fails does not keep the others running.
    for (const worker of (await def.workers?.(deps)) ?? []) undo.push(() => worker.stop());

    // Last in, so first out: stop() first stops taking calls and lets in-flight ones drain while
    // everything behind them still runs. Before a successful listen there is nothing to drain.
    let listening = false;
    undo.push(() => server.stop(listening ? undefined : 0));
    const address = await server.listen(def.grpcAddress);
    listening = true;
    log.info({ address, ...def.logFields?.(deps) }, `${def.name} listening`);

    let stopped: Promise<void> | undefined;
    return {
      address,
      prisma,
      deps,
      stop: () => (stopped ??= unwind()),
    };
  } catch (err) {
    await unwind();
    throw err;
  }
}
