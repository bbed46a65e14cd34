import type { ApplicationSettingsCache } from "@quarry/application-settings";
import type { PromiseClient } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import type { CollabServiceDefinition, IdentityServiceDefinition, RepoServiceDefinition } from "@quarry/proto";
import type { SecretBox } from "@quarry/secret-box";
import type { PrismaClient } from "./generated/prisma/client.ts";

/** How deliveries are made; tests lower the timings. */
export interface HookSettings {
  /** Let hooks reach loopback and private addresses whatever the application setting says (QUARRY_ALLOW_LOCAL_REQUESTS=true). */
  allowLocalRequests: boolean;
  /** X-Service-Instance: the instance's external URL (the launcher may set it once the gateway listens). */
  instanceUrl: string;
  /** User-Agent of deliveries. */
  userAgent: string;
  /** Per-request timeout, ms (GitLab: 10 s). */
  timeoutMs: number;
  /** Attempts per delivery, the first included, for network errors, timeouts and 5xx. */
  maxAttempts: number;
  /** Delay before the first retry, ms; doubles with every further retry. */
  retryBaseMs: number;
  /** How often the delivery worker looks for due deliveries, ms (new ones wake it at once). */
  pollIntervalMs: number;
  /** Resends (per hook and user) and tests (per hook owner and user) allowed per minute. */
  rateLimitPerMinute: number;
  /** How often the worker deletes what is past retention (delivery/prune.ts), ms. */
  pruneIntervalMs: number;
}

export const DEFAULT_HOOK_SETTINGS: HookSettings = {
  allowLocalRequests: false,
  instanceUrl: "http://localhost:8080",
  userAgent: "GitLab/18.5.0",
  timeoutMs: 10_000,
  maxAttempts: 4,
  retryBaseMs: 10_000,
  pollIntervalMs: 1_000,
  rateLimitPerMinute: 5,
  pruneIntervalMs: 3600_000,
};

/** Everything the handlers need, wired by hand in server.ts. */
export interface HookDeps {
  prisma: PrismaClient;
  log: Logger;
  /** The outbox relay (audit records of hook changes): kicked after a commit that wrote to it. */
  outbox?: { kick(): void };
  /** Seals hook secrets (context "web_hooks"). */
  box: SecretBox;
  /** Mutable: the launcher may set instanceUrl after start. */
  settings: HookSettings;
  /** The instance settings in force (allow_local_requests_from_web_hooks_and_services), kept live from the bus. */
  applicationSettings: ApplicationSettingsCache;
  /** identity-service: a project's group ancestry. */
  identity: PromiseClient<IdentityServiceDefinition>;
  /** repo-service: the commits of test deliveries' sample payloads. */
  repo: PromiseClient<RepoServiceDefinition>;
  /**
   * collab-service: the participants and @mentions of notification e-mails (ListNoteableParticipants);
   * unset until connected (the one-process launcher starts collab-service later): mails then go to
   * the participants the event names (author, assignees, reviewers).
   */
  collab?: PromiseClient<CollabServiceDefinition>;
  /** Wakes the delivery worker (new deliveries were queued). */
  wake(): void;
}

/** Whether hooks may reach loopback and private addresses: pinned by QUARRY_ALLOW_LOCAL_REQUESTS, else the application setting. */
export function allowLocalRequests(deps: Pick<HookDeps, "settings" | "applicationSettings">): boolean {
  return deps.settings.allowLocalRequests || deps.applicationSettings.current.allow_local_requests_from_web_hooks_and_services;
}
