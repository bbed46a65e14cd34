import { runServiceProcess } from "@quarry/service";
import { loadRepoEnv } from "./env.ts";
import { startRepoService } from "./server.ts";
import { startGitSshServer } from "./ssh/git-ssh.ts";
import { parseStorageConfig } from "./storage/storages.ts";

// Process entry for the distributed mode: one repo-service per process.
// With QUARRY_SSH_PORT, git over SSH runs in the same process (ssh/git-ssh.ts).
await runServiceProcess("repo-service", loadRepoEnv, async ({ env, log, bus }) => {
  const repo = await startRepoService({
    databaseUrl: env.DATABASE_URL,
    grpcAddress: env.GRPC_ADDRESS,
    storageRoot: env.QUARRY_STORAGE_ROOT,
    storages: parseStorageConfig(env.QUARRY_STORAGES, env.QUARRY_STORAGE_WEIGHTS, env.QUARRY_STORAGE_ROOT),
    catFilePoolSize: env.GIT_CATFILE_POOL_SIZE,
    defaultBranchProtection: env.QUARRY_DEFAULT_BRANCH_PROTECTION,
    identityServiceAddress: env.IDENTITY_SERVICE_ADDRESS,
    bus,
    log,
  });
  if (!env.QUARRY_SSH_PORT) return repo;
  const ssh = await startGitSshServer({
    deps: repo.deps,
    identityServiceAddress: env.IDENTITY_SERVICE_ADDRESS,
    host: env.QUARRY_SSH_LISTEN,
    port: env.QUARRY_SSH_PORT,
    hostKeyPath: env.QUARRY_SSH_HOST_KEY,
    addresses: { base: env.QUARRY_EXTERNAL_URL.replace(/\/+$/, ""), sshHost: env.QUARRY_SSH_HOST, sshPort: env.QUARRY_SSH_PORT },
    log,
  }).catch(async (err: unknown) => {
    await repo.stop();
    throw err;
  });
  return {
    async stop() {
      await ssh.stop();
      await repo.stop();
    },
  };
});
