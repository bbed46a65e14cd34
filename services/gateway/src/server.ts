import { applicationSettingsFromIdentity } from "@quarry/application-settings";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Subjects, type AccessChangedEvent, type EventBus, type TokenRevokeEvent } from "@quarry/bus";
import { createClient, createMetrics, createStreamingClient, type Metrics, type MetricsJson, type PromiseClient } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import {
  activityV1,
  ciV1,
  collabV1,
  errorTrackingV1,
  hookV1,
  identityV1,
  mirrorV1,
  repoV1,
  type ActivityServiceDefinition,
  type CiServiceDefinition,
  type CollabServiceDefinition,
  type ErrorTrackingServiceDefinition,
  type HookServiceDefinition,
  type IdentityServiceDefinition,
  type MirrorServiceDefinition,
  type RepoServiceDefinition,
} from "@quarry/proto";
import { randomUUID } from "node:crypto";
import { createApp } from "./app.ts";
import type { GatewayDeps } from "./deps.ts";
import { TokenCache } from "./http/auth.ts";
import { AuthorizationCache } from "./http/authorization-cache.ts";
import { UserCache } from "./http/user-cache.ts";
import { applyAccessChange } from "./http/access-evictions.ts";
import { DEFAULT_METRICS_CIDRS, parseAllowList } from "./http/metrics.ts";

export interface GatewayOptions {
  host: string;
  port: number;
  /** Base URL clients use; defaults to http://localhost:<bound port>. */
  externalUrl?: string;
  identityServiceAddress: string;
  repoServiceAddress: string;
  ciServiceAddress: string;
  /** ci-service's artifacts role for UploadArtifact/DownloadArtifact; unset: `ciServiceAddress`. */
  ciArtifactsAddress?: string;
  hookServiceAddress: string;
  mirrorServiceAddress: string;
  collabServiceAddress: string;
  errorTrackingServiceAddress: string;
  /** activity-service: audit events. */
  activityServiceAddress: string;
  deadlineMs: number;
  authCacheTtlMs: number;
  maxBodyBytes: number;
  /** Largest artifact upload, bytes (default 100 MiB). */
  maxArtifactBytes?: number;
  /** Pins the largest Markdown upload, bytes (unset: the max_attachment_size application setting, 100 MB by default). */
  maxAttachmentBytes?: number;
  /** Long polling of POST /jobs/request, milliseconds (default 10 s; 0 = answer at once). */
  jobRequestWaitMs?: number;
  /** Optional: lets every gateway evict revoked tokens at once. */
  bus?: EventBus;
  log: Logger;
  version: string;
  revision: string;
  /** Git over SSH's address in ssh_url_to_repo: host (default the external URL's) and port (default 22). */
  sshHost?: string;
  sshPort?: number;
  /**
   * The gateway's Prometheus registry (request counts and latencies, gRPC client calls, process
   * metrics), served on GET /metrics: default a new one (`service="gateway"`); false = none.
   */
  metrics?: Metrics | false;
  /**
   * Client addresses that may read GET /metrics (env QUARRY_METRICS_ALLOWED_CIDRS, comma-separated
   * CIDRs); others get 404. Default: loopback and the private ranges (DEFAULT_METRICS_CIDRS).
   */
  metricsAllowedCidrs?: string | readonly string[];
  /**
   * Other registries GET /metrics shows with the gateway's: the embedded mode's services, which
   * share its process but have no /metrics of their own.
   */
  metricsSources?: () => Promise<MetricsJson[]>;
}

export interface RunningGateway {
  url: string;
  port: number;
  deps: GatewayDeps;
  stop(): Promise<void>;
}

/** Starts the HTTP gateway in front of the services. */
export async function startGateway(o: GatewayOptions): Promise<RunningGateway> {
  const metricsAllowed = parseAllowList(o.metricsAllowedCidrs ?? DEFAULT_METRICS_CIDRS);
  const metrics = o.metrics === false ? undefined : (o.metrics ?? createMetrics("gateway", { log: o.log }));
  const identity: PromiseClient<IdentityServiceDefinition> = createClient(identityV1.IdentityService, o.identityServiceAddress, {
    deadlineMs: o.deadlineMs,
    metrics,
  });
  const repo: PromiseClient<RepoServiceDefinition> = createClient(repoV1.RepoService, o.repoServiceAddress, { deadlineMs: o.deadlineMs, metrics });
  const gitHttp = createStreamingClient(repoV1.GitHttpService, o.repoServiceAddress);
  const ci: PromiseClient<CiServiceDefinition> = createClient(ciV1.CiService, o.ciServiceAddress, { deadlineMs: o.deadlineMs, metrics });
  const ciArtifacts = o.ciArtifactsAddress ? createClient(ciV1.CiService, o.ciArtifactsAddress, { deadlineMs: o.deadlineMs, metrics }) : ci;
  const hook: PromiseClient<HookServiceDefinition> = createClient(hookV1.HookService, o.hookServiceAddress, { deadlineMs: o.deadlineMs, metrics });
  const mirror: PromiseClient<MirrorServiceDefinition> = createClient(mirrorV1.MirrorService, o.mirrorServiceAddress, { deadlineMs: o.deadlineMs, metrics });
  const collab: PromiseClient<CollabServiceDefinition> = createClient(collabV1.CollabService, o.collabServiceAddress, { deadlineMs: o.deadlineMs, metrics });
  const errorTracking: PromiseClient<ErrorTrackingServiceDefinition> = createClient(errorTrackingV1.ErrorTrackingService, o.errorTrackingServiceAddress, {
    deadlineMs: o.deadlineMs,
    metrics,
  });
  const activity: PromiseClient<ActivityServiceDefinition> = createClient(activityV1.ActivityService, o.activityServiceAddress, {
    deadlineMs: o.deadlineMs,
    metrics,
  });
  const tokenCache = new TokenCache(o.authCacheTtlMs);
  const authCache = new AuthorizationCache(o.authCacheTtlMs);
  const userCache = new UserCache(o.authCacheTtlMs);
  const settings = await applicationSettingsFromIdentity({ service: "gateway", identity, bus: o.bus, log: o.log }).start();
  const deps: GatewayDeps = {
    identity,
    repo,
    gitHttp,
    ci,
    ciArtifacts,
    hook,
    mirror,
    collab,
    errorTracking,
    activity,
    tokenCache,
    authCache,
    userCache,
    settings,
    log: o.log,
    config: {
      externalUrl: "",
      maxBodyBytes: o.maxBodyBytes,
      jobRequestWaitMs: o.jobRequestWaitMs ?? 10_000,
      maxArtifactBytes: o.maxArtifactBytes ?? 100 * 1024 * 1024,
      maxAttachmentBytes: o.maxAttachmentBytes,
      version: o.version,
      revision: o.revision,
      sshHost: o.sshHost ?? "",
      sshPort: o.sshPort ?? 0,
    },
  };
  // Each gateway instance needs every revocation, so its consumer is its own: ephemeral, deleted on stop.
  const revocations = await o.bus?.subscribe<TokenRevokeEvent>(Subjects.tokenRevoke, async (msg) => tokenCache.evictToken(Number(msg.data.token_id)), {
    durable: `gateway-${randomUUID()}`,
    ephemeral: true,
  });
  // Likewise every access change (projects, groups, memberships, users' state): authorization answers go at once.
  const accessChanges = await o.bus?.subscribe<AccessChangedEvent>(Subjects.accessChanged, async (msg) => applyAccessChange(deps, msg.data), {
    durable: `gateway-access-${randomUUID()}`,
    ephemeral: true,
  });
  const app = createApp(deps, { metrics, metricsAllowed, metricsSources: o.metricsSources });
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(o.port, o.host, () => resolve(s));
    s.once("error", reject);
  });
  // Slow clients must not hold sockets forever; gRPC deadlines bound the work behind them.
  server.requestTimeout = 5 * 60_000;
  server.headersTimeout = 60_000;
  const port = (server.address() as AddressInfo).port;
  deps.config.externalUrl = (o.externalUrl ?? `http://localhost:${port}`).replace(/\/+$/, "");
  o.log.info({ url: deps.config.externalUrl }, "gateway listening");
  return {
    url: deps.config.externalUrl,
    port,
    deps,
    async stop() {
      await revocations?.unsubscribe();
      await accessChanges?.unsubscribe();
      await settings.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      identity.close();
      repo.close();
      gitHttp.close();
      ci.close();
      if (ciArtifacts !== ci) ciArtifacts.close();
      hook.close();
      mirror.close();
      collab.close();
      errorTracking.close();
      activity.close();
    },
  };
}
