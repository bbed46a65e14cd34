import type { EventBus, Subscription } from "@quarry/bus";
import { applyMigrations } from "@quarry/database";
import { createClient, createGrpcServer, type AsyncHandlers } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { hookV1, identityV1, repoV1, type HookServiceDefinition, type IdentityServiceDefinition, type RepoServiceDefinition } from "@quarry/proto";
import { createSecretBox } from "@quarry/secret-box";
import { createPrisma } from "./db.ts";
import { DEFAULT_HOOK_SETTINGS, type HookDeps, type HookSettings } from "./deps.ts";
import { startDeliveryWorker, type DeliveryWorker } from "./delivery/worker.ts";
import { migrations } from "./generated/migrations.ts";
import { createHook } from "./hook/create-hook.ts";
import { deleteHook } from "./hook/delete-hook.ts";
import { getHook } from "./hook/get-hook.ts";
import { listHookEvents } from "./hook/list-hook-events.ts";
import { listHooks } from "./hook/list-hooks.ts";
import { listRecordedEvents } from "./hook/list-recorded-events.ts";
import { resendHookEvent } from "./hook/resend-hook-event.ts";
import { testHook } from "./hook/test-hook.ts";
import { updateHook } from "./hook/update-hook.ts";
import { DEFAULT_SUBJECTS, subscribeToEvents, type HookSubjects } from "./hook/subscriptions.ts";

export function hookHandlers(deps: HookDeps): AsyncHandlers<HookServiceDefinition> {
  return {
    ListRecordedEvents: listRecordedEvents(deps),
    CreateHook: createHook(deps),
    GetHook: getHook(deps),
    ListHooks: listHooks(deps),
    UpdateHook: updateHook(deps),
    DeleteHook: deleteHook(deps),
    ListHookEvents: listHookEvents(deps),
    ResendHookEvent: resendHookEvent(deps),
    TestHook: testHook(deps),
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
  /** Delivery settings (instance URL, User-Agent, timeout, retries, rate limit); defaults DEFAULT_HOOK_SETTINGS. */
  settings?: Partial<Omit<HookSettings, "allowLocalRequests">>;
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
  const identity = createClient<IdentityServiceDefinition>(identityV1.IdentityService, o.identityAddress, { deadlineMs: o.deadlineMs });
  const repo = createClient<RepoServiceDefinition>(repoV1.RepoService, o.repoAddress, { deadlineMs: o.deadlineMs });
  let worker: DeliveryWorker | null = null;
  const deps: HookDeps = {
    prisma,
    log: o.log,
    box: createSecretBox(o.encryptionKey, "web_hooks"),
    settings: { ...DEFAULT_HOOK_SETTINGS, ...o.settings, allowLocalRequests: o.allowLocalRequests },
    identity,
    repo,
    wake: () => worker?.wake(),
  };
  let subs: Subscription[] = [];
  const server = createGrpcServer(o.log);
  // Readiness (the gateway's /-/readiness) asks this service's health: it serves only with its database.
  server.addDependencyCheck("database", () => prisma.$queryRaw`SELECT 1`);
  try {
    worker = startDeliveryWorker(deps);
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
        await worker?.stop();
        identity.close();
        repo.close();
        await prisma.$disconnect();
      },
    };
  } catch (err) {
    await Promise.all(subs.map((s) => s.unsubscribe()));
    await server.stop(0);
    await worker?.stop();
    identity.close();
    repo.close();
    await prisma.$disconnect();
    throw err;
  }
}
