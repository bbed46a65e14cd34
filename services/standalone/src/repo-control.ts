import { createClient } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { identityV1 } from "@quarry/proto";
import { type RunningRepoService, startGitSshServer } from "@quarry/repo-service";

/** What the stack asks of a started repo-service, whether it runs on this thread or its own. */
export function repoControl(repo: RunningRepoService, log: Logger) {
  return {
    /** Instance settings from identity-service (repo-service starts before it). */
    async fetchSettings(identityAddress: string, deadlineMs: number): Promise<void> {
      const identity = createClient(identityV1.IdentityService, identityAddress, { deadlineMs });
      try {
        await repo.deps.applicationSettings.fetchFrom(identity);
      } finally {
        identity.close();
      }
    },
    /** Git over SSH, served by repo-service's SSH server; push events carry `base` and the bound port. */
    async startSsh(o: { identityAddress: string; deadlineMs: number; host?: string; port: number; hostKeyPath: string; base: string; sshHost?: string }) {
      const addresses: { base: string; sshHost?: string; sshPort?: number } = { base: o.base, sshHost: o.sshHost };
      const server = await startGitSshServer({
        deps: repo.deps,
        identityServiceAddress: o.identityAddress,
        deadlineMs: o.deadlineMs,
        host: o.host,
        port: o.port,
        hostKeyPath: o.hostKeyPath,
        addresses,
        log,
      });
      addresses.sshPort = server.port;
      return server;
    },
  };
}
