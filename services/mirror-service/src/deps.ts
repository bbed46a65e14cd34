import type { EventBus } from "@quarry/bus";
import type { PromiseClient } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import type { OutboundPolicy } from "@quarry/outbound";
import type { RepoServiceDefinition } from "@quarry/proto";
import type { SecretBox } from "@quarry/secret-box";
import type { PrismaClient } from "./generated/prisma/client.ts";

/** Everything the handlers need, wired by hand in server.ts. */
export interface MirrorDeps {
  prisma: PrismaClient;
  log: Logger;
  /** The outbox relay (audit records of mirror changes): kicked after a commit that wrote to it. */
  outbox?: { kick(): void };
  /** Seals `encrypted_credentials` (QUARRY_MIRROR_ENCRYPTION_KEY, context "remote_mirrors"). */
  box: SecretBox;
  /** Where sync work is published (`quarry.mirror.sync`). */
  bus: EventBus;
  /** repo-service: runs the `git push` of a sync (UpdateRemoteMirror). */
  repo: PromiseClient<RepoServiceDefinition>;
  /** Whether mirrors may push to loopback and private addresses. */
  policy: OutboundPolicy;
  sync: {
    /** A started sync not finished within this is assumed lost and claimed again, ms. */
    leaseMs: number;
    /** Time limit of one push, ms. */
    pushTimeoutMs: number;
  };
}
