import { type ApplicationSettingsCache, applicationSettingsFromIdentity } from "@quarry/application-settings";
import type { EventBus } from "@quarry/bus";
import { createClient, type AsyncHandlers, type Metrics } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { identityV1, mirrorV1, repoV1, type MirrorServiceDefinition } from "@quarry/proto";
import { createSecretBox } from "@quarry/secret-box";
import { startService } from "@quarry/service";
import type { MirrorDeps } from "./deps.ts";
import { migrations } from "./generated/migrations.ts";
import { PrismaClient } from "./generated/prisma/client.ts";
import { countMirrors } from "./mirror/count-mirrors.ts";
import { createMirror } from "./mirror/create-mirror.ts";
import { deleteMirror } from "./mirror/delete-mirror.ts";
import { getMirror } from "./mirror/get-mirror.ts";
import { getMirrorPublicKey } from "./mirror/get-mirror-public-key.ts";
import { listMirrors } from "./mirror/list-mirrors.ts";
import { syncMirror } from "./mirror/sync-mirror.ts";
import { updateMirror } from "./mirror/update-mirror.ts";
import { startSyncWorker, type SyncWorker } from "./sync/worker.ts";
import { registerMirrorMetrics } from "./metrics.ts";

export function mirrorHandlers(deps: MirrorDeps): AsyncHandlers<MirrorServiceDefinition> {
  return {
    CountMirrors: countMirrors(deps),
    ListMirrors: listMirrors(deps),
    GetMirror: getMirror(deps),
    CreateMirror: createMirror(deps),
    UpdateMirror: updateMirror(deps),
    DeleteMirror: deleteMirror(deps),
    SyncMirror: syncMirror(deps),
    GetMirrorPublicKey: getMirrorPublicKey(deps),
  };
}

export interface MirrorServiceOptions {
  databaseUrl: string;
  grpcAddress: string;
  /** repo-service: runs the `git push` of a sync. */
  repoServiceAddress: string;
  /** gRPC deadline towards repo-service for short calls, ms. */
  deadlineMs: number;
  /** Secret that mirror passwords and SSH private keys are sealed with (≥ 32 characters). */
  encryptionKey: string;
  /** Let mirrors push to loopback and private addresses whatever the application setting says (QUARRY_ALLOW_LOCAL_REQUESTS=true). */
  allowLocalRequests: boolean;
  /**
   * identity-service, for the instance settings at start (allow_local_requests_from_web_hooks_and_services);
   * unset: GitLab's defaults until a change arrives on the bus.
   */
  identityServiceAddress?: string;
  /** Push events schedule syncs; sync requests travel on it as work. */
  bus: EventBus;
  log: Logger;
  /** Where its metrics go (the embedded mode gives each service a registry); default the process's (METRICS_PORT). */
  metrics?: Metrics;
  /** How often mirrors left scheduled (or started past their lease) are looked for, ms (default 30 s). */
  sweepIntervalMs?: number;
  /** Time limit of one push, ms (default 10 minutes); a started sync's lease is this plus a minute. */
  pushTimeoutMs?: number;
}

export interface RunningMirrorService {
  address: string;
  deps: MirrorDeps;
  /** The background sync side (sweep on demand in tests). */
  worker: SyncWorker;
  stop(): Promise<void>;
}

/** Starts mirror-service on the shared skeleton (packages/service): migrations, Prisma, MirrorService, the sync worker. */
export async function startMirrorService(o: MirrorServiceOptions): Promise<RunningMirrorService> {
  const pushTimeoutMs = o.pushTimeoutMs ?? 10 * 60_000;
  let worker: SyncWorker | undefined;
  let settings: ApplicationSettingsCache | undefined;
  const service = await startService({
    name: "mirror-service",
    databaseUrl: o.databaseUrl,
    grpcAddress: o.grpcAddress,
    bus: o.bus,
    log: o.log,
    metrics: o.metrics,
    migrations,
    PrismaClient,
    deps({ prisma, outbox, onStop }): MirrorDeps {
      const repo = createClient(repoV1.RepoService, o.repoServiceAddress, { deadlineMs: o.deadlineMs });
      onStop(() => repo.close());
      const identity = o.identityServiceAddress ? createClient(identityV1.IdentityService, o.identityServiceAddress, { deadlineMs: o.deadlineMs }) : undefined;
      onStop(() => identity?.close());
      settings = applicationSettingsFromIdentity({ service: "mirror-service", identity, bus: o.bus, log: o.log });
      const cache = settings;
      return {
        prisma,
        log: o.log,
        outbox: outbox(),
        box: createSecretBox(o.encryptionKey, "remote_mirrors"),
        bus: o.bus,
        repo,
        // Read at every check: allow_local_requests_from_web_hooks_and_services applies at once.
        policy: {
          get allowLocal() {
            return o.allowLocalRequests || cache.current.allow_local_requests_from_web_hooks_and_services;
          },
        },
        sync: { leaseMs: pushTimeoutMs + 60_000, pushTimeoutMs },
      };
    },
    handlers(server, deps) {
      server.addService("quarry.mirror.v1.MirrorService", mirrorV1.MirrorService.service, mirrorHandlers(deps));
    },
    subscribe: async () => [await settings!.start()],
    async workers(deps) {
      worker = await startSyncWorker(deps, { sweepIntervalMs: o.sweepIntervalMs ?? 30_000 });
      return [worker];
    },
    gauges: (metrics, _deps, prisma) => registerMirrorMetrics(metrics, prisma),
  });
  return { address: service.address, deps: service.deps, worker: worker!, stop: service.stop };
}
