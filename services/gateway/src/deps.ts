import type { ApplicationSettingsCache } from "@quarry/application-settings";
import type { PromiseClient } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import type {
  ActivityServiceDefinition,
  CiServiceDefinition,
  CollabServiceDefinition,
  ErrorTrackingServiceDefinition,
  HookServiceDefinition,
  IdentityServiceDefinition,
  MirrorServiceDefinition,
  RepoServiceDefinition,
} from "@quarry/proto";
import type { GitHttpServiceClient } from "@quarry/proto/types/repo/v1/GitHttpService";
import type { TokenCache } from "./http/token-cache.ts";
import type { AuthorizationCache } from "./http/authorization-cache.ts";
import type { UserCache } from "./http/user-cache.ts";

/** What the routes need; wired by hand in main.ts / the standalone launcher. */
export interface GatewayDeps {
  identity: PromiseClient<IdentityServiceDefinition>;
  repo: PromiseClient<RepoServiceDefinition>;
  /** repo-service's streaming git smart HTTP RPCs (raw grpc-js client, no deadline: transfers take as long as they take). */
  gitHttp: GitHttpServiceClient;
  ci: PromiseClient<CiServiceDefinition>;
  /**
   * Where the artifact RPCs (UploadArtifact, DownloadArtifact) go: ci-service's artifacts role at
   * CI_ARTIFACTS_ADDRESS when set, otherwise the same client as `ci`. The only place that decides.
   */
  ciArtifacts: PromiseClient<CiServiceDefinition>;
  /** Webhooks and their delivery records. */
  hook: PromiseClient<HookServiceDefinition>;
  /** Push mirrors. */
  mirror: PromiseClient<MirrorServiceDefinition>;
  /** Labels (and, later, milestones and the rest of issue 13). */
  collab: PromiseClient<CollabServiceDefinition>;
  /** Error tracking settings, client keys and collected errors. */
  errorTracking: PromiseClient<ErrorTrackingServiceDefinition>;
  /** Audit events (and, later, contribution events). */
  activity: PromiseClient<ActivityServiceDefinition>;
  tokenCache: TokenCache;
  /** Recent project Authorize successes (http/authorization-cache.ts), evicted by quarry.access.changed. */
  authCache: AuthorizationCache;
  /** Recent GetUser answers by user id (http/user-cache.ts), evicted by quarry.access.changed. */
  userCache: UserCache;
  /** The instance settings in force (GET/PUT /application/settings), kept live from the bus. */
  settings: ApplicationSettingsCache;
  log: Logger;
  config: {
    /** Base URL without trailing slash, e.g. http://localhost:8080 */
    externalUrl: string;
    maxBodyBytes: number;
    /** Largest artifact a runner may upload (GitLab's max_artifacts_size, 100 MB by default). */
    maxArtifactBytes: number;
    /** Largest Markdown upload when pinned by QUARRY_MAX_ATTACHMENT_SIZE; unset: the max_attachment_size application setting. */
    maxAttachmentBytes: number | undefined;
    /** How long POST /jobs/request waits for a job before answering 204 (long polling). */
    jobRequestWaitMs: number;
    version: string;
    revision: string;
    /** Git over SSH's host and port for ssh_url_to_repo (empty / 0: the external URL's host, port 22). */
    sshHost: string;
    sshPort: number;
  };
}

/** Largest Markdown upload in bytes: the pinned value, else GitLab's max_attachment_size (MB). */
export function attachmentLimitBytes(deps: Pick<GatewayDeps, "config" | "settings">): number {
  return deps.config.maxAttachmentBytes ?? deps.settings.current.max_attachment_size * 1024 * 1024;
}
