export { startRepoService, type RepoServiceOptions, type RunningRepoService } from "./server.ts";
export { loadRepoEnv, repoEnvShape, type RepoEnv } from "./env.ts";
