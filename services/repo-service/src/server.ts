import { mkdir } from "node:fs/promises";
import type * as grpc from "@grpc/grpc-js";
import path from "node:path";
import { OutboxRelay, type EventBus } from "@quarry/bus";
import { applyMigrations } from "@quarry/database";
import { createGrpcServer, type AsyncHandlers } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { repoV1, type RepoServiceDefinition } from "@quarry/proto";
import { createPrisma } from "./db.ts";
import type { RepoDeps } from "./deps.ts";
import { migrations } from "./generated/migrations.ts";
import { CatFilePool } from "./repository/cat-file.ts";
import { createBranch } from "./repository/create-branch.ts";
import { createRepository } from "./repository/create-repository.ts";
import { deleteBranch } from "./repository/delete-branch.ts";
import { deleteMergedBranches } from "./repository/delete-merged-branches.ts";
import { deleteRepository } from "./repository/delete-repository.ts";
import { findBranch } from "./repository/find-branch.ts";
import { findProtectedBranch } from "./repository/find-protected-branch.ts";
import { listProtectedBranches } from "./repository/list-protected-branches.ts";
import { protectBranch } from "./repository/protect-branch.ts";
import { unprotectBranch } from "./repository/unprotect-branch.ts";
import { updateProtectedBranch } from "./repository/update-protected-branch.ts";
import { getRepositoryInfo } from "./repository/get-repository-info.ts";
import { listBranches } from "./repository/list-branches.ts";
import { setDefaultBranch } from "./repository/set-default-branch.ts";
import { infoRefs } from "./repository/info-refs.ts";
import { receivePack } from "./repository/receive-pack.ts";
import { uploadPack } from "./repository/upload-pack.ts";

export function repoHandlers(deps: RepoDeps): AsyncHandlers<RepoServiceDefinition> {
  return {
    CreateRepository: createRepository(deps),
    DeleteRepository: deleteRepository(deps),
    GetRepositoryInfo: getRepositoryInfo(deps),
    SetDefaultBranch: setDefaultBranch(deps),
    ListBranches: listBranches(deps),
    FindBranch: findBranch(deps),
    CreateBranch: createBranch(deps),
    DeleteBranch: deleteBranch(deps),
    DeleteMergedBranches: deleteMergedBranches(deps),
    ListProtectedBranches: listProtectedBranches(deps),
    FindProtectedBranch: findProtectedBranch(deps),
    ProtectBranch: protectBranch(deps),
    UpdateProtectedBranch: updateProtectedBranch(deps),
    UnprotectBranch: unprotectBranch(deps),
  };
}

/** GitHttpService's streaming handlers (raw grpc-js: the unary wrapper does not stream). */
export function gitHttpHandlers(deps: RepoDeps): grpc.UntypedServiceImplementation {
  return {
    InfoRefs: infoRefs(deps),
    UploadPack: uploadPack(deps),
    ReceivePack: receivePack(deps),
  };
}

export interface RepoServiceOptions {
  databaseUrl: string;
  grpcAddress: string;
  /** Directory holding the repositories; created when missing, resolved against the cwd. */
  storageRoot: string;
  bus: EventBus;
  log: Logger;
}

export interface RunningRepoService {
  address: string;
  deps: RepoDeps;
  stop(): Promise<void>;
}

/** Applies migrations, wires dependencies and serves RepoService on `grpcAddress`. */
export async function startRepoService(o: RepoServiceOptions): Promise<RunningRepoService> {
  await applyMigrations(o.databaseUrl, migrations, { log: (m) => o.log.info(m) });
  const storageRoot = path.resolve(o.storageRoot);
  await mkdir(storageRoot, { recursive: true });
  const prisma = createPrisma(o.databaseUrl);
  const outbox = new OutboxRelay(prisma, o.bus, o.log);
  const catFile = new CatFilePool();
  const deps: RepoDeps = { prisma, bus: o.bus, outbox, log: o.log, storageRoot, catFile };
  const server = createGrpcServer(o.log);
  server.addService("quarry.repo.v1.RepoService", repoV1.RepoService.service, repoHandlers(deps));
  server.addRawService("quarry.repo.v1.GitHttpService", repoV1.GitHttpService.service, gitHttpHandlers(deps));
  let address: string;
  try {
    address = await server.listen(o.grpcAddress);
  } catch (err) {
    catFile.close();
    await prisma.$disconnect();
    throw err;
  }
  outbox.start();
  o.log.info({ address, storageRoot }, "repo-service listening");
  return {
    address,
    deps,
    async stop() {
      await server.stop();
      await outbox.stop();
      catFile.close();
      await prisma.$disconnect();
    },
  };
}
