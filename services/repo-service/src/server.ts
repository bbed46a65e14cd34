import { applicationSettingsFromIdentity } from "@quarry/application-settings";
import { mkdir } from "node:fs/promises";
import { subscribeToRepositoryChanges } from "./statistics/repository-statistics.ts";
import type * as grpc from "@grpc/grpc-js";
import path from "node:path";
import type { EventBus } from "@quarry/bus";
import { createClient, serverStream, type AsyncHandlers, type Metrics } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { identityV1, repoV1, type RepoServiceDefinition } from "@quarry/proto";
import { startService } from "@quarry/service";
import type { RepoDeps } from "./deps.ts";
import { migrations } from "./generated/migrations.ts";
import { PrismaClient } from "./generated/prisma/client.ts";
import { CatFilePool } from "./git/cat-file.ts";
import { GitSessionPool } from "./git/git-sessions.ts";
import { commitDiff } from "./rpc/commit-diff.ts";
import { compareRefs } from "./rpc/compare-refs.ts";
import { commitFiles } from "./rpc/commit-files.ts";
import { cherryPickCommit, revertCommit } from "./rpc/pick-commit.ts";
import { updateSubmodule } from "./rpc/update-submodule.ts";
import { updateRemoteMirror } from "./rpc/update-remote-mirror.ts";
import { createBranch } from "./rpc/create-branch.ts";
import { createRepository } from "./rpc/create-repository.ts";
import { createTag } from "./rpc/create-tag.ts";
import { deleteBranch } from "./rpc/delete-branch.ts";
import { deleteMergedBranches } from "./rpc/delete-merged-branches.ts";
import { deleteRepository } from "./rpc/delete-repository.ts";
import { deleteTag } from "./rpc/delete-tag.ts";
import { findBranch } from "./rpc/find-branch.ts";
import { findProtectedBranch } from "./rpc/find-protected-branch.ts";
import { listProtectedBranches } from "./rpc/list-protected-branches.ts";
import { protectBranch } from "./rpc/protect-branch.ts";
import { unprotectBranch } from "./rpc/unprotect-branch.ts";
import { updateProtectedBranch } from "./rpc/update-protected-branch.ts";
import { findTag } from "./rpc/find-tag.ts";
import { getFile } from "./rpc/get-file.ts";
import { getFileBlame } from "./rpc/get-file-blame.ts";
import { findCommit } from "./rpc/find-commit.ts";
import { getCommitSignature } from "./rpc/get-commit-signature.ts";
import { findBlob } from "./rpc/find-blob.ts";
import { findMergeBase } from "./rpc/find-merge-base.ts";
import { getArchive } from "./rpc/get-archive.ts";
import { getRepositoryInfo } from "./rpc/get-repository-info.ts";
import { getTagSignature } from "./rpc/get-tag-signature.ts";
import { listBranches } from "./rpc/list-branches.ts";
import { listTags } from "./rpc/list-tags.ts";
import { listCommitRefs } from "./rpc/list-commit-refs.ts";
import { listCommits } from "./rpc/list-commits.ts";
import { listContributors } from "./rpc/list-contributors.ts";
import { listTree } from "./rpc/list-tree.ts";
import { setDefaultBranch } from "./rpc/set-default-branch.ts";
import { infoRefs } from "./rpc/info-refs.ts";
import { receivePack } from "./rpc/receive-pack.ts";
import { uploadPack } from "./rpc/upload-pack.ts";
import { createSnippetRepository } from "./rpc/create-snippet-repository.ts";
import { commitSnippetFiles } from "./rpc/commit-snippet-files.ts";
import { listSnippetFiles } from "./rpc/list-snippet-files.ts";
import { readSnippetFile } from "./rpc/read-snippet-file.ts";
import { deleteSnippetRepository } from "./rpc/delete-snippet-repository.ts";
import { listWikiPages } from "./wiki/list-wiki-pages.ts";
import { getWikiPage } from "./wiki/get-wiki-page.ts";
import { createWikiPage } from "./wiki/create-wiki-page.ts";
import { updateWikiPage } from "./wiki/update-wiki-page.ts";
import { deleteWikiPage } from "./wiki/delete-wiki-page.ts";
import { createWikiAttachment } from "./wiki/create-wiki-attachment.ts";
import { ensureWikiRepository } from "./wiki/ensure-wiki-repository.ts";
import { removeStaleLocks } from "./git/stale-locks.ts";
import { checkMerge } from "./rpc/check-merge.ts";
import { mergeToBranch } from "./rpc/merge-to-branch.ts";
import { rebaseBranch } from "./rpc/rebase-branch.ts";
import { writeMergeRequestRef } from "./rpc/write-merge-request-ref.ts";
import { deleteMergeRequestRefs } from "./rpc/delete-merge-request-refs.ts";
import { getRepositoryStorages } from "./rpc/get-repository-storages.ts";
import { scheduleStorageMove } from "./rpc/schedule-storage-move.ts";
import { scheduleBulkStorageMoves } from "./rpc/schedule-bulk-storage-moves.ts";
import { listStorageMoves } from "./rpc/list-storage-moves.ts";
import { getStorageMove } from "./rpc/get-storage-move.ts";
import { DEFAULT_STORAGE, READ_ONLY_MESSAGE, RepositoryStorages, type StorageConfig } from "./storage/storages.ts";
import { subscribeToStorageMoves, type StorageMoveHooks } from "./storage/moves.ts";
import { snippetDiskPath, snippetError } from "./writes/snippets.ts";
import { registerRepoMetrics } from "./metrics.ts";

/**
 * A write handler that first refuses, while the repository is read-only (a storage move runs),
 * with GitLab's temporary read-only message (403), or `refusal` when given.
 */
function writable<Req, Res>(deps: RepoDeps, diskPathOf: (req: Req) => string, handler: (req: Req) => Promise<Res>, refusal?: () => Error) {
  return async (req: Req, ...rest: unknown[]): Promise<Res> => {
    const diskPath = diskPathOf(req);
    if (diskPath && deps.storages.isReadOnly(diskPath)) {
      if (refusal) throw refusal();
      deps.storages.assertWritable(diskPath);
    }
    // The call context and anything else the server passes go through unchanged.
    return (handler as (req: Req, ...rest: unknown[]) => Promise<Res>)(req, ...rest);
  };
}

export function repoHandlers(deps: RepoDeps): AsyncHandlers<RepoServiceDefinition> {
  const byPath = (req: { diskPath: string }) => req.diskPath;
  const gated = <Req extends { diskPath: string }, Res>(handler: (req: Req) => Promise<Res>) => writable(deps, byPath, handler);
  return {
    CreateRepository: createRepository(deps),
    DeleteRepository: deleteRepository(deps),
    GetRepositoryInfo: getRepositoryInfo(deps),
    SetDefaultBranch: setDefaultBranch(deps),
    ListBranches: listBranches(deps),
    FindBranch: findBranch(deps),
    CreateBranch: gated(createBranch(deps)),
    DeleteBranch: gated(deleteBranch(deps)),
    DeleteMergedBranches: gated(deleteMergedBranches(deps)),
    ListProtectedBranches: listProtectedBranches(deps),
    FindProtectedBranch: findProtectedBranch(deps),
    ProtectBranch: protectBranch(deps),
    UpdateProtectedBranch: updateProtectedBranch(deps),
    UnprotectBranch: unprotectBranch(deps),
    ListTags: listTags(deps),
    FindTag: findTag(deps),
    CreateTag: gated(createTag(deps)),
    DeleteTag: gated(deleteTag(deps)),
    GetTagSignature: getTagSignature(deps),
    GetFile: getFile(deps),
    GetFileBlame: getFileBlame(deps),
    // Commit reads.
    ListCommits: listCommits(deps),
    FindCommit: findCommit(deps),
    CommitDiff: commitDiff(deps),
    ListCommitRefs: listCommitRefs(deps),
    GetCommitSignature: getCommitSignature(deps),
    ListTree: listTree(deps),
    FindBlob: findBlob(deps),
    GetArchive: serverStream(getArchive(deps)),
    CompareRefs: compareRefs(deps),
    ListContributors: listContributors(deps),
    FindMergeBase: findMergeBase(deps),
    CommitFiles: gated(commitFiles(deps)),
    CherryPickCommit: gated(cherryPickCommit(deps)),
    RevertCommit: gated(revertCommit(deps)),
    UpdateSubmodule: gated(updateSubmodule(deps)),
    UpdateRemoteMirror: updateRemoteMirror(deps),
    // Snippet repositories.
    CreateSnippetRepository: createSnippetRepository(deps),
    // A snippet being moved: GitLab's repository error on the snippet (400), with the read-only reason.
    CommitSnippetFiles: writable(
      deps,
      (req: { snippetId: number }) => snippetDiskPath(Number(req.snippetId)),
      commitSnippetFiles(deps),
      () => snippetError(false, READ_ONLY_MESSAGE),
    ),
    ListSnippetFiles: listSnippetFiles(deps),
    ReadSnippetFile: readSnippetFile(deps),
    DeleteSnippetRepository: deleteSnippetRepository(deps),
    // Merge requests' git work.
    CheckMerge: checkMerge(deps),
    MergeToBranch: gated(mergeToBranch(deps)),
    RebaseBranch: gated(rebaseBranch(deps)),
    WriteMergeRequestRef: gated(writeMergeRequestRef(deps)),
    DeleteMergeRequestRefs: gated(deleteMergeRequestRefs(deps)),
    // Wikis.
    ListWikiPages: listWikiPages(deps),
    GetWikiPage: getWikiPage(deps),
    CreateWikiPage: gated(createWikiPage(deps)),
    UpdateWikiPage: gated(updateWikiPage(deps)),
    DeleteWikiPage: gated(deleteWikiPage(deps)),
    CreateWikiAttachment: gated(createWikiAttachment(deps)),
    EnsureWikiRepository: ensureWikiRepository(deps),
    // Repository storages and storage moves.
    GetRepositoryStorages: getRepositoryStorages(deps),
    ScheduleStorageMove: scheduleStorageMove(deps),
    ScheduleBulkStorageMoves: scheduleBulkStorageMoves(deps),
    ListStorageMoves: listStorageMoves(deps),
    GetStorageMove: getStorageMove(deps),
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
  /** Directory holding the repositories; created when missing, resolved against the cwd. The `default` storage's root. */
  storageRoot: string;
  /**
   * The repository storages (QUARRY_STORAGES / QUARRY_STORAGE_WEIGHTS); default: `default` at
   * `storageRoot` with weight 100. A `default` entry's root replaces `storageRoot`.
   */
  storages?: StorageConfig[];
  /** Test seam of storage moves (storage/moves.ts); never set in production. */
  storageMoveHooks?: StorageMoveHooks;
  /** How long a replicated move keeps its source for reads already under way there (default 2000 ms). */
  storageMoveCleanupDelayMs?: number;
  bus: EventBus;
  log: Logger;
  /** Where its metrics go (the embedded mode gives each service a registry); default the process's (METRICS_PORT). */
  metrics?: Metrics;
  /** Most pooled `git cat-file` processes (default 64); 0 = one process per read. */
  catFilePoolSize?: number;
  /** Pins GitLab's default_branch_protection (0–4); unset: the application setting (2 by default: Maintainers push and merge). */
  defaultBranchProtection?: number;
  /**
   * identity-service, for the instance settings at start (default_branch_protection); unset:
   * GitLab's defaults until a change arrives on the bus.
   */
  identityServiceAddress?: string;
}

export interface RunningRepoService {
  address: string;
  deps: RepoDeps;
  stop(): Promise<void>;
}

/** Starts repo-service on the shared skeleton (packages/service) and serves RepoService and GitHttpService on `grpcAddress`. */
export async function startRepoService(o: RepoServiceOptions): Promise<RunningRepoService> {
  const startedAt = Date.now();
  const configs: StorageConfig[] = o.storages?.length ? o.storages : [{ name: DEFAULT_STORAGE, root: o.storageRoot, weight: 100 }];
  const storageRoot = path.resolve(configs.find((c) => c.name === DEFAULT_STORAGE)?.root ?? o.storageRoot);
  const roots = [...new Set(configs.map((c) => path.resolve(c.root)))];
  const service = await startService({
    name: "repo-service",
    databaseUrl: o.databaseUrl,
    grpcAddress: o.grpcAddress,
    bus: o.bus,
    log: o.log,
    metrics: o.metrics,
    migrations,
    PrismaClient,
    async prepare() {
      for (const root of roots) {
        await mkdir(root, { recursive: true });
        // Before serving: a lock a killed git left behind would refuse writes to its ref for good.
        const staleLocks = await removeStaleLocks(root, startedAt);
        if (staleLocks.length) o.log.warn({ locks: staleLocks }, "removed git lock files left by an interrupted git process");
      }
    },
    async deps({ prisma, outbox, onStop }): Promise<RepoDeps> {
      const storages = new RepositoryStorages(configs, prisma);
      await storages.load();
      const catFile = new CatFilePool({ maxProcesses: o.catFilePoolSize });
      onStop(() => catFile.close());
      const gitSessions = new GitSessionPool();
      onStop(() => gitSessions.close());
      const identity = o.identityServiceAddress ? createClient(identityV1.IdentityService, o.identityServiceAddress, { deadlineMs: 10_000 }) : undefined;
      onStop(() => identity?.close());
      const applicationSettings = applicationSettingsFromIdentity({ service: "repo-service", identity, bus: o.bus, log: o.log });
      return {
        prisma,
        bus: o.bus,
        outbox: outbox(),
        log: o.log,
        storageRoot,
        storages,
        catFile,
        gitSessions,
        applicationSettings,
        // Read when a default branch comes into existence: a change of the setting applies at once.
        get defaultBranchProtection() {
          return o.defaultBranchProtection ?? applicationSettings.current.default_branch_protection;
        },
      };
    },
    handlers(server, deps) {
      server.addService("quarry.repo.v1.RepoService", repoV1.RepoService.service, repoHandlers(deps));
      server.addRawService("quarry.repo.v1.GitHttpService", repoV1.GitHttpService.service, gitHttpHandlers(deps));
    },
    // Repository statistics: every push, tag push and wiki write re-measures the project.
    // The instance settings (default_branch_protection) follow PUT /application/settings; storage moves: the work
    // queue of scheduled moves, and the resumption of interrupted ones.
    subscribe: async (deps) => [
      await deps.applicationSettings.start(),
      ...(await subscribeToRepositoryChanges(deps, o.bus)),
      ...(await subscribeToStorageMoves(deps, o.bus, { hooks: o.storageMoveHooks, cleanupDelayMs: o.storageMoveCleanupDelayMs })),
    ],
    logFields: () => ({ storageRoot, storages: configs.map((c) => c.name) }),
    gauges: (metrics, deps) => registerRepoMetrics(metrics, deps.catFile),
  });
  return { address: service.address, deps: service.deps, stop: service.stop };
}
