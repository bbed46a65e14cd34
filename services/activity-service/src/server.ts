import type { EventBus } from "@quarry/bus";
import { type AsyncHandlers, createClient, type Metrics } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { type ActivityServiceDefinition, activityV1, type IdentityServiceDefinition, identityV1 } from "@quarry/proto";
import { startService } from "@quarry/service";
import { getAuditEvent } from "./audit/get-audit-event.ts";
import { listAuditEvents } from "./audit/list-audit-events.ts";
import { type ActivityDeps, identityAuthors, identityPaths } from "./deps.ts";
import { listEvents } from "./events/list-events.ts";
import { migrations } from "./generated/migrations.ts";
import { PrismaClient } from "./generated/prisma/client.ts";
import { type ActivitySubjects, DEFAULT_SUBJECTS, subscribeToEvents } from "./recorder/subscribe.ts";

export function activityHandlers(deps: ActivityDeps): AsyncHandlers<ActivityServiceDefinition> {
  return {
    ListAuditEvents: listAuditEvents(deps),
    GetAuditEvent: getAuditEvent(deps),
    ListEvents: listEvents(deps),
  };
}

export interface ActivityServiceOptions {
  databaseUrl: string;
  grpcAddress: string;
  /** identity-service: audit events' authors' names and e-mails. */
  identityServiceAddress: string;
  /** gRPC deadline towards identity-service, ms. */
  deadlineMs: number;
  /** Domain events are consumed from it (durable consumers). */
  bus: EventBus;
  log: Logger;
  /** Where its metrics go (the embedded mode gives each service a registry); default the process's (METRICS_PORT). */
  metrics?: Metrics;
  /** Subjects to consume; defaults `quarry.identity.>` and `quarry.audit.event`. */
  subjects?: ActivitySubjects;
}

export interface RunningActivityService {
  address: string;
  deps: ActivityDeps;
  stop(): Promise<void>;
}

/** Starts activity-service on the shared skeleton (packages/service): migrations, Prisma, the recorder, ActivityService. */
export async function startActivityService(o: ActivityServiceOptions): Promise<RunningActivityService> {
  const service = await startService({
    name: "activity-service",
    databaseUrl: o.databaseUrl,
    grpcAddress: o.grpcAddress,
    bus: o.bus,
    log: o.log,
    metrics: o.metrics,
    migrations,
    PrismaClient,
    deps({ prisma, onStop }): ActivityDeps {
      const identity = createClient<IdentityServiceDefinition>(identityV1.IdentityService, o.identityServiceAddress, { deadlineMs: o.deadlineMs });
      onStop(() => identity.close());
      return { prisma, log: o.log, authorOf: identityAuthors(identity), entityPathOf: identityPaths(identity) };
    },
    handlers(server, deps) {
      server.addService("quarry.activity.v1.ActivityService", activityV1.ActivityService.service, activityHandlers(deps));
    },
    subscribe(deps) {
      return subscribeToEvents(o.bus, deps, o.subjects ?? DEFAULT_SUBJECTS);
    },
  });
  return { address: service.address, deps: service.deps, stop: service.stop };
}
