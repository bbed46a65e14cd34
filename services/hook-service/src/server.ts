import type { EventBus, Subscription } from "@quarry/bus";
import { applyMigrations } from "@quarry/database";
import { createGrpcServer, type AsyncHandlers } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { hookV1, type HookServiceDefinition } from "@quarry/proto";
import { createPrisma } from "./db.ts";
import type { HookDeps } from "./deps.ts";
import { migrations } from "./generated/migrations.ts";
import { listRecordedEvents } from "./hook/list-recorded-events.ts";
import { DEFAULT_SUBJECTS, subscribeToEvents, type HookSubjects } from "./hook/subscriptions.ts";

export function hookHandlers(deps: HookDeps): AsyncHandlers<HookServiceDefinition> {
  return {
    ListRecordedEvents: listRecordedEvents(deps),
  };
}

export interface HookServiceOptions {
  databaseUrl: string;
  grpcAddress: string;
  /** identity-service: a project's group ancestry (group hooks), projects for sample payloads. */
  identityAddress: string;
  /** repo-service: sample commits for test deliveries. */
  repoAddress: string;
  /** gRPC deadline towards identity- and repo-service, ms. */
  deadlineMs: number;
  /** Secret that hook tokens, custom header values and URL variables are sealed with (≥ 32 characters). */
  encryptionKey: string;
  /** Let hooks deliver to loopback and private addresses (QUARRY_ALLOW_LOCAL_REQUESTS). */
  allowLocalRequests: boolean;
  bus: EventBus;
  log: Logger;
  /** Subjects to consume; defaults `quarry.identity.>` and `quarry.repo.>`. */
  subjects?: Partial<HookSubjects>;
}

export interface RunningHookService {
  address: string;
  deps: HookDeps;
  /** Unsubscribes from the bus (durables keep their position), stops serving, disconnects. */
  stop(): Promise<void>;
}

/** Applies migrations, subscribes to domain events and serves HookService on `grpcAddress`. */
export async function startHookService(o: HookServiceOptions): Promise<RunningHookService> {
  await applyMigrations(o.databaseUrl, migrations, { log: (m) => o.log.info(m) });
  const prisma = createPrisma(o.databaseUrl);
  const deps: HookDeps = { prisma, log: o.log };
  let subs: Subscription[] = [];
  const server = createGrpcServer(o.log);
  try {
    subs = await subscribeToEvents(o.bus, deps, { ...DEFAULT_SUBJECTS, ...o.subjects });
    server.addService("quarry.hook.v1.HookService", hookV1.HookService.service, hookHandlers(deps));
    const address = await server.listen(o.grpcAddress);
    o.log.info({ address }, "hook-service listening");
    return {
      address,
      deps,
      async stop() {
        await Promise.all(subs.map((s) => s.unsubscribe()));
        await server.stop();
        await prisma.$disconnect();
      },
    };
  } catch (err) {
    await Promise.all(subs.map((s) => s.unsubscribe()));
    await server.stop(0);
    await prisma.$disconnect();
    throw err;
  }
}
