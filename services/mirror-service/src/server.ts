import type { EventBus } from "@quarry/bus";
import { applyMigrations } from "@quarry/database";
import { createGrpcServer, type AsyncHandlers } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { mirrorV1, type MirrorServiceDefinition } from "@quarry/proto";
import { createPrisma } from "./db.ts";
import type { MirrorDeps } from "./deps.ts";
import { migrations } from "./generated/migrations.ts";
import { countMirrors } from "./mirror/count-mirrors.ts";

export function mirrorHandlers(deps: MirrorDeps): AsyncHandlers<MirrorServiceDefinition> {
  return {
    CountMirrors: countMirrors(deps),
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
}

export interface RunningMirrorService {
  address: string;
  deps: MirrorDeps;
  stop(): Promise<void>;
}

/** Applies migrations, wires dependencies and serves MirrorService on `grpcAddress`. */
export async function startMirrorService(o: MirrorServiceOptions): Promise<RunningMirrorService> {
  await applyMigrations(o.databaseUrl, migrations, { log: (m) => o.log.info(m) });
  const prisma = createPrisma(o.databaseUrl);
  const deps: MirrorDeps = { prisma, log: o.log };
  const server = createGrpcServer(o.log);
  server.addService("quarry.mirror.v1.MirrorService", mirrorV1.MirrorService.service, mirrorHandlers(deps));
  let address: string;
  try {
    address = await server.listen(o.grpcAddress);
  } catch (err) {
    await prisma.$disconnect();
    throw err;
  }
  o.log.info({ address }, "mirror-service listening");
  return {
    address,
    deps,
    async stop() {
      await server.stop();
      await prisma.$disconnect();
    },
  };
}
