import type { EventBus } from "@quarry/bus";
import type { AsyncHandlers, Metrics } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { errorTrackingV1, type ErrorTrackingServiceDefinition } from "@quarry/proto";
import { startService } from "@quarry/service";
import { createClientKey } from "./client-keys/create-client-key.ts";
import { deleteClientKey } from "./client-keys/delete-client-key.ts";
import { listClientKeys } from "./client-keys/list-client-keys.ts";
import type { ErrorTrackingDeps } from "./deps.ts";
import { collectEvents } from "./errors/collect-events.ts";
import { getError } from "./errors/get-error.ts";
import { listErrorEvents } from "./errors/list-error-events.ts";
import { listErrors } from "./errors/list-errors.ts";
import { updateError } from "./errors/update-error.ts";
import { migrations } from "./generated/migrations.ts";
import { PrismaClient } from "./generated/prisma/client.ts";
import { getSettings } from "./settings/get-settings.ts";
import { updateSettings } from "./settings/update-settings.ts";

export function errorTrackingHandlers(deps: ErrorTrackingDeps): AsyncHandlers<ErrorTrackingServiceDefinition> {
  return {
    GetSettings: getSettings(deps),
    UpdateSettings: updateSettings(deps),
    ListClientKeys: listClientKeys(deps),
    CreateClientKey: createClientKey(deps),
    DeleteClientKey: deleteClientKey(deps),
    CollectEvents: collectEvents(deps),
    ListErrors: listErrors(deps),
    ListErrorEvents: listErrorEvents(deps),
    GetError: getError(deps),
    UpdateError: updateError(deps),
  };
}

export interface ErrorTrackingServiceOptions {
  databaseUrl: string;
  grpcAddress: string;
  /** The skeleton's bus (the service publishes and consumes nothing yet). */
  bus: EventBus;
  log: Logger;
  /** Where its metrics go (the embedded mode gives each service a registry); default the process's (METRICS_PORT). */
  metrics?: Metrics;
}

export interface RunningErrorTrackingService {
  address: string;
  deps: ErrorTrackingDeps;
  stop(): Promise<void>;
}

/** Starts error-tracking-service on the shared skeleton (packages/service): migrations, Prisma, ErrorTrackingService. */
export async function startErrorTrackingService(o: ErrorTrackingServiceOptions): Promise<RunningErrorTrackingService> {
  const service = await startService({
    name: "error-tracking-service",
    databaseUrl: o.databaseUrl,
    grpcAddress: o.grpcAddress,
    bus: o.bus,
    log: o.log,
    metrics: o.metrics,
    migrations,
    PrismaClient,
    deps({ prisma }): ErrorTrackingDeps {
      return { prisma, log: o.log };
    },
    handlers(server, deps) {
      server.addService("quarry.errortracking.v1.ErrorTrackingService", errorTrackingV1.ErrorTrackingService.service, errorTrackingHandlers(deps));
    },
  });
  return { address: service.address, deps: service.deps, stop: service.stop };
}
