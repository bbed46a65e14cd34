import { applicationSettingsFromIdentity } from "@quarry/application-settings";
import type { EventBus } from "@quarry/bus";
import { createClient, type AsyncHandlers, type Metrics } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import {
  collabV1,
  hookV1,
  identityV1,
  repoV1,
  type CollabServiceDefinition,
  type HookServiceDefinition,
  type IdentityServiceDefinition,
  type RepoServiceDefinition,
} from "@quarry/proto";
import { createSecretBox } from "@quarry/secret-box";
import { startService } from "@quarry/service";
import { DEFAULT_HOOK_SETTINGS, type HookDeps, type HookSettings } from "./deps.ts";
import { startDeliveryWorker, type DeliveryWorker } from "./delivery/worker.ts";
import { migrations } from "./generated/migrations.ts";
import { PrismaClient } from "./generated/prisma/client.ts";
import { createHook } from "./hook/create-hook.ts";
import { deleteHook } from "./hook/delete-hook.ts";
import { getHook } from "./hook/get-hook.ts";
import { listHookEvents } from "./hook/list-hook-events.ts";
import { listHooks } from "./hook/list-hooks.ts";
import { listRecordedEvents } from "./hook/list-recorded-events.ts";
import { resendHookEvent } from "./hook/resend-hook-event.ts";
import { testHook } from "./hook/test-hook.ts";
import { updateHook } from "./hook/update-hook.ts";
import { DEFAULT_SUBJECTS, subscribeToEvents, type HookSubjects } from "./hook/subscriptions.ts";
import { createNotifier, subscribeNotifications } from "./notify/notify.ts";
import { registerHookMetrics } from "./metrics.ts";

export function hookHandlers(deps: HookDeps): AsyncHandlers<HookServiceDefinition> {
  return {
    ListRecordedEvents: listRecordedEvents(deps),
    CreateHook: createHook(deps),
    GetHook: getHook(deps),
    ListHooks: listHooks(deps),
    UpdateHook: updateHook(deps),
    DeleteHook: deleteHook(deps),
    ListHookEvents: listHookEvents(deps),
    ResendHookEvent: resendHookEvent(deps),
    TestHook: testHook(deps),
  };
}

export interface HookServiceOptions {
  databaseUrl: string;
  grpcAddress: string;
  /** identity-service: a project's group ancestry (group hooks), projects for sample payloads. */
  identityServiceAddress: string;
  /** repo-service: sample commits for test deliveries. */
  repoServiceAddress: string;
  /** collab-service: participants and @mentions of notification e-mails; unset = connect later with `connectCollab`. */
  collabServiceAddress?: string;
  /** gRPC deadline towards identity- and repo-service, ms. */
  deadlineMs: number;
  /** Secret that hook tokens, custom header values and URL variables are sealed with (≥ 32 characters). */
  encryptionKey: string;
  /** Let hooks deliver to loopback and private addresses (QUARRY_ALLOW_LOCAL_REQUESTS). */
  allowLocalRequests: boolean;
  bus: EventBus;
  log: Logger;
  /** Where its metrics go (the embedded mode gives each service a registry); default the process's (METRICS_PORT). */
  metrics?: Metrics;
  /** Subjects to consume; defaults `quarry.identity.>` and `quarry.repo.>`. */
  subjects?: Partial<HookSubjects>;
  /** Delivery settings (instance URL, User-Agent, timeout, retries, rate limit); defaults DEFAULT_HOOK_SETTINGS. */
  settings?: Partial<Omit<HookSettings, "allowLocalRequests">>;
  /** SMTP server of notification e-mails (QUARRY_SMTP_URL, e.g. smtp://host:25); unset = no e-mails. */
  smtpUrl?: string;
  /** From: of notification e-mails (QUARRY_EMAIL_FROM); default gitlab@<external host>. */
  emailFrom?: string;
}

export interface RunningHookService {
  address: string;
  deps: HookDeps;
  /** Connects the collab-service client (once; closed at stop), for launchers that start collab-service later. */
  connectCollab(address: string): void;
  /** Stops serving, stops the delivery worker, unsubscribes from the bus (durables keep their position), disconnects. */
  stop(): Promise<void>;
}

/** Starts hook-service on the shared skeleton (packages/service): subscribes to domain events and serves HookService. */
export async function startHookService(o: HookServiceOptions): Promise<RunningHookService> {
  let worker: DeliveryWorker | undefined;
  let closeCollab = () => {};
  const connect = (deps: HookDeps, address: string) => {
    if (deps.collab) return;
    const collab = createClient<CollabServiceDefinition>(collabV1.CollabService, address, { deadlineMs: o.deadlineMs });
    deps.collab = collab;
    closeCollab = () => collab.close();
  };
  const service = await startService({
    name: "hook-service",
    databaseUrl: o.databaseUrl,
    grpcAddress: o.grpcAddress,
    bus: o.bus,
    log: o.log,
    metrics: o.metrics,
    migrations,
    PrismaClient,
    deps({ prisma, outbox, onStop }): HookDeps {
      const identity = createClient<IdentityServiceDefinition>(identityV1.IdentityService, o.identityServiceAddress, { deadlineMs: o.deadlineMs });
      const repo = createClient<RepoServiceDefinition>(repoV1.RepoService, o.repoServiceAddress, { deadlineMs: o.deadlineMs });
      onStop(() => identity.close());
      onStop(() => repo.close());
      onStop(() => closeCollab());
      const deps: HookDeps = {
        prisma,
        log: o.log,
        outbox: outbox(),
        box: createSecretBox(o.encryptionKey, "web_hooks"),
        settings: { ...DEFAULT_HOOK_SETTINGS, ...o.settings, allowLocalRequests: o.allowLocalRequests },
        applicationSettings: applicationSettingsFromIdentity({ service: "hook-service", identity, bus: o.bus, log: o.log, subject: o.subjects?.settings }),
        identity,
        repo,
        // Until the worker runs (it starts after the subscriptions), its first pass finds what was queued.
        wake: () => worker?.wake(),
      };
      if (o.collabServiceAddress) connect(deps, o.collabServiceAddress);
      return deps;
    },
    handlers(server, deps) {
      server.addService("quarry.hook.v1.HookService", hookV1.HookService.service, hookHandlers(deps));
    },
    async subscribe(deps) {
      const subjects = { ...DEFAULT_SUBJECTS, ...o.subjects };
      // allow_local_requests_from_web_hooks_and_services follows PUT /application/settings.
      const subs = [await deps.applicationSettings.start(), ...(await subscribeToEvents(o.bus, deps, subjects))];
      if (!o.smtpUrl) return subs;
      try {
        return [...subs, ...(await subscribeNotifications(o.bus, deps, createNotifier(o.smtpUrl, o.emailFrom), subjects))];
      } catch (err) {
        await Promise.all(subs.map((s) => s.unsubscribe()));
        throw err;
      }
    },
    workers(deps) {
      worker = startDeliveryWorker(deps);
      return [worker];
    },
    gauges: (metrics, _deps, prisma) => registerHookMetrics(metrics, prisma),
  });
  return { address: service.address, deps: service.deps, connectCollab: (address) => connect(service.deps, address), stop: service.stop };
}
