// A running activity-service on a fresh database for handler tests (identity-service is not
// started: tests record events through recordAuditEvent with their own authorOf).
import { InProcessBus } from "@quarry/bus";
import { createClient, type PromiseClient } from "@quarry/grpc";
import { silentLogger } from "@quarry/logger";
import { type ActivityServiceDefinition, activityV1 } from "@quarry/proto";
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import { type RunningActivityService, startActivityService } from "./server.ts";

export interface Fixture {
  db: TestDatabase;
  bus: InProcessBus;
  svc: RunningActivityService;
  client: PromiseClient<ActivityServiceDefinition>;
  stop(): Promise<void>;
}

export async function startFixture(
  name: string,
  subjects = { identity: `quarry.test_${name}.identity.>`, audit: `quarry.test_${name}.audit` },
): Promise<Fixture> {
  const log = silentLogger();
  const db = await createTestDatabase(`activity_${name}`);
  const bus = new InProcessBus({ log });
  const svc = await startActivityService({
    databaseUrl: db.url,
    grpcAddress: "127.0.0.1:0",
    identityServiceAddress: "127.0.0.1:1",
    deadlineMs: 2_000,
    bus,
    log,
    subjects,
  });
  const client = createClient(activityV1.ActivityService, svc.address, { deadlineMs: 10_000 });
  return {
    db,
    bus,
    svc,
    client,
    async stop() {
      client.close();
      await svc.stop();
      await bus.close();
      await db.drop();
    },
  };
}

/** Inserts audit events directly (ids ascending in the order given). */
export async function seed(
  f: Fixture,
  rows: { authorId: number; entityType: string; entityId: number; eventName?: string; createdAt?: Date; details?: object }[],
) {
  const out = [];
  for (const [i, r] of rows.entries()) {
    out.push(
      await f.svc.deps.prisma.auditEvent.create({
        data: {
          sourceEventId: `seed-${i}-${Math.random()}`,
          authorId: r.authorId,
          entityType: r.entityType,
          entityId: r.entityId,
          eventName: r.eventName ?? "project_created",
          details: r.details ?? { add: "project" },
          ...(r.createdAt ? { createdAt: r.createdAt } : {}),
        },
      }),
    );
  }
  return out;
}
