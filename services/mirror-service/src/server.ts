import type { EventBus } from "@quarry/bus";
import { applyMigrations } from "@quarry/database";
import { createClient, createGrpcServer, type AsyncHandlers } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { mirrorV1, repoV1, type MirrorServiceDefinition } from "@quarry/proto";
import { createSecretBox } from "@quarry/secret-box";
import { createPrisma } from "./db.ts";
import type { MirrorDeps } from "./deps.ts";
import { migrations } from "./generated/migrations.ts";
import { countMirrors } from "./mirror/count-mirrors.ts";
import { createMirror } from "./mirror/create-mirror.ts";
import { deleteMirror } from "./mirror/delete-mirror.ts";
import { getMirror } from "./mirror/get-mirror.ts";
import { getMirrorPublicKey } from "./mirror/get-mirror-public-key.ts";
import { listMirrors } from "./mirror/list-mirrors.ts";
import { syncMirror } from "./mirror/sync-mirror.ts";
import { updateMirror } from "./mirror/update-mirror.ts";
import { startSyncWorker, type SyncWorker } from "./sync/worker.ts";

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
  repoAddress: string;
  /** gRPC deadline towards repo-service for short calls, ms. */
  deadlineMs: number;
  /** Secret that mirror passwords and SSH private keys are sealed with (≥ 32 characters). */
  encryptionKey: string;
  /** Let mirrors push to loopback and private addresses (QUARRY_ALLOW_LOCAL_REQUESTS). */
  allowLocalRequests: boolean;
  /** Push events schedule syncs; sync requests travel on it as work. */
  bus: EventBus;
  log: Logger;
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

/** Applies migrations, wires dependencies and serves MirrorService on `grpcAddress`. */
export async function startMirrorService(o: MirrorServiceOptions): Promise<RunningMirrorService> {
  await applyMigrations(o.databaseUrl, migrations, { log: (m) => o.log.info(m) });
  const prisma = createPrisma(o.databaseUrl);
  const repo = createClient(repoV1.RepoService, o.repoAddress, { deadlineMs: o.deadlineMs });
  const pushTimeoutMs = o.pushTimeoutMs ?? 10 * 60_000;
  const deps: MirrorDeps = {
    prisma,
    log: o.log,
    box: createSecretBox(o.encryptionKey, "remote_mirrors"),
    bus: o.bus,
    repo,
    policy: { allowLocal: o.allowLocalRequests },
    sync: { leaseMs: pushTimeoutMs + 60_000, pushTimeoutMs },
  };
  const server = createGrpcServer(o.log);
  // Readiness (the gateway's /-/readiness) asks this service's health: it serves only with its database.
  server.addDependencyCheck("database", () => prisma.$queryRaw`SELECT 1`);
  server.addService("quarry.mirror.v1.MirrorService", mirrorV1.MirrorService.service, mirrorHandlers(deps));
  let address: string;
  let worker: SyncWorker;
  try {
    address = await server.listen(o.grpcAddress);
    worker = await startSyncWorker(deps, { sweepIntervalMs: o.sweepIntervalMs ?? 30_000 });
  } catch (err) {
    await server.stop().catch(() => {});
    repo.close();
    await prisma.$disconnect();
    throw err;
  }
  o.log.info({ address }, "mirror-service listening");
  return {
    address,
    deps,
    worker,
    async stop() {
      await server.stop();
      await worker.stop();
      repo.close();
      await prisma.$disconnect();
    },
  };
}
