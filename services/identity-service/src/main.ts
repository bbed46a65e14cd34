import { runServiceProcess } from "@quarry/service";
import { loadIdentityEnv } from "./env.ts";
import { startIdentityService } from "./server.ts";
import { avatarStoreFromEnv } from "./storage.ts";

// Process entry for the distributed mode: one identity-service per process.
await runServiceProcess("identity-service", loadIdentityEnv, async ({ env, log, bus }) => {
  const service = await startIdentityService({
    databaseUrl: env.DATABASE_URL,
    grpcAddress: env.GRPC_ADDRESS,
    repoServiceAddress: env.REPO_SERVICE_ADDRESS,
    deadlineMs: env.GRPC_DEADLINE_MS,
    bus,
    log,
    rootEmail: env.QUARRY_ROOT_EMAIL,
    rootPassword: env.QUARRY_ROOT_PASSWORD,
    avatarStore: avatarStoreFromEnv(env),
    encryptionKey: env.QUARRY_IDENTITY_ENCRYPTION_KEY,
    dnsServers: env.QUARRY_DNS_SERVERS,
  });
  if (env.QUARRY_BOOTSTRAP_ROOT) {
    const root = await service.ensureRoot(env.QUARRY_ROOT_TOKEN);
    if (root.token) log.warn({ token: root.token }, "created administrator root; this token is shown once");
  }
  return service;
});
