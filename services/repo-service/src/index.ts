export { startRepoService, type RepoServiceOptions, type RunningRepoService } from "./server.ts";
export { parseStorageConfig, type StorageConfig } from "./storage/storages.ts";
export type { StorageMoveHooks } from "./storage/moves.ts";
export { loadRepoEnv, repoEnvShape, type RepoEnv } from "./env.ts";
export { startGitSshServer, type GitSshServerOptions, type RunningGitSshServer } from "./ssh/git-ssh.ts";
/** Reports a ref change made outside repo-service (tests, maintenance scripts) to its in-memory refs. */
export { refsChanged } from "./git/ref-writes.ts";
