import { applicationSettingsFromIdentity } from "@quarry/application-settings";
import { mkdir } from "node:fs/promises";
import { subscribeToRepositoryChanges } from "./statistics/repository-statistics.ts";
import type * as grpc from "@grpc/grpc-js";
import path from "node:path";
import type { EventBus } from "@quarry/bus";
import { createClient, serverStream, type AsyncHandlers } from "@quarry/grpc";
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
    ListTags: listTags(deps),
    FindTag: findTag(deps),
    CreateTag: createTag(deps),
    DeleteTag: deleteTag(deps),
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
    CommitFiles: commitFiles(deps),
    CherryPickCommit: cherryPickCommit(deps),
    RevertCommit: revertCommit(deps),
    UpdateSubmodule: updateSubmodule(deps),
    UpdateRemoteMirror: updateRemoteMirror(deps),
    // Snippet repositories.
    CreateSnippetRepository: createSnippetRepository(deps),
    CommitSnippetFiles: commitSnippetFiles(deps),
    ListSnippetFiles: listSnippetFiles(deps),
    ReadSnippetFile: readSnippetFile(deps),
    DeleteSnippetRepository: deleteSnippetRepository(deps),
    // Merge requests' git work.
    CheckMerge: checkMerge(deps),
    MergeToBranch: mergeToBranch(deps),
    RebaseBranch: rebaseBranch(deps),
    WriteMergeRequestRef: writeMergeRequestRef(deps),
    DeleteMergeRequestRefs: deleteMergeRequestRefs(deps),
    // Wikis.
    ListWikiPages: listWikiPages(deps),
    GetWikiPage: getWikiPage(deps),
    CreateWikiPage: createWikiPage(deps),
    UpdateWikiPage: updateWikiPage(deps),
    DeleteWikiPage: deleteWikiPage(deps),
    CreateWikiAttachment: createWikiAttachment(deps),
    EnsureWikiRepository: ensureWikiRepository(deps),
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
  const storageRoot = path.resolve(o.storageRoot);
  const service = await startService({
    name: "repo-service",
    databaseUrl: o.databaseUrl,
    grpcAddress: o.grpcAddress,
    bus: o.bus,
    log: o.log,
    migrations,
    PrismaClient,
    async prepare() {
      await mkdir(storageRoot, { recursive: true });
      // Before serving: a lock a killed git left behind would refuse writes to its ref for good.
      const staleLocks = await removeStaleLocks(storageRoot, startedAt);
      if (staleLocks.length) o.log.warn({ locks: staleLocks }, "removed git lock files left by an interrupted git process");
    },
    deps({ prisma, outbox, onStop }): RepoDeps {
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
    // The instance settings (default_branch_protection) follow PUT /application/settings.
    subscribe: async (deps) => [await deps.applicationSettings.start(), ...(await subscribeToRepositoryChanges(deps, o.bus))],
    logFields: () => ({ storageRoot }),
  });
  return { address: service.address, deps: service.deps, stop: service.stop };
}
