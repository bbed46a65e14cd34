// hook-service end to end: real bus (in-process, and NATS JetStream when NATS_URL is set),
// real PostgreSQL, real gRPC client.
import { randomUUID } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { InProcessBus, NatsJetStreamBus, Subjects, type BusMessage, type EventBus, type Subscription } from "@quarry/bus";
import { createClient, type PromiseClient } from "@quarry/grpc";
import { silentLogger } from "@quarry/logger";
import { hookV1, type HookServiceDefinition } from "@quarry/proto";
import { createTestDatabase, waitFor, type TestDatabase } from "@quarry/testing";
import { service as healthService } from "grpc-health-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPrisma } from "@quarry/service";
import { PrismaClient } from "./generated/prisma/client.ts";
import { DURABLES, type HookSubjects } from "./hook/subscriptions.ts";
import { startHookService, type RunningHookService } from "./server.ts";
import { pushEvent } from "./test-fixture.ts";

const NATS_URL = process.env.NATS_URL;
if (!NATS_URL) console.warn("NATS_URL is not set: hook-service NatsJetStreamBus cases are SKIPPED");

const rand = () => randomUUID().replace(/-/g, "").slice(0, 10);
const log = silentLogger();

interface BusHarness {
  bus: EventBus;
  /** Subjects handed to the service; undefined = its defaults. */
  subjects: HookSubjects | undefined;
  /** Maps a real subject (Subjects.*) to the one this harness publishes on. */
  subject(real: string): string;
  teardown(): Promise<void>;
}

const impls: { name: string; skip: boolean; setup(): Promise<BusHarness> }[] = [
  {
    name: "InProcessBus",
    skip: false,
    async setup() {
      // A private bus: the service runs with its default subjects.
      const bus = new InProcessBus({ log });
      return { bus, subjects: undefined, subject: (s) => s, teardown: () => bus.close() };
    },
  },
  {
    name: "NatsJetStreamBus",
    skip: !NATS_URL,
    async setup() {
      // Like the bus contract tests: a random stream on a private subject prefix.
      const servers = NATS_URL ?? "";
      const id = rand();
      const stream = `T_${id}`;
      const prefix = `quarry.t${id}`;
      const bus = await NatsJetStreamBus.connect({ servers, stream, subjects: [`${prefix}.>`], name: `hook-test-${id}`, log });
      return {
        bus,
        subjects: {
          identity: `${prefix}.identity.>`,
          repo: `${prefix}.repo.>`,
          collab: `${prefix}.collab.>`,
          ci: `${prefix}.ci.>`,
          settings: `${prefix}.settings.application`,
        },
        subject: (s) => s.replace(/^quarry\./, `${prefix}.`),
        async teardown() {
          await bus.close();
          const nc = await connect({ servers });
          try {
            await (await jetstreamManager(nc)).streams.delete(stream);
          } finally {
            await nc.close();
          }
        },
      };
    },
  },
];

const now = () => new Date().toISOString();
const base = () => ({ event_id: randomUUID(), created_at: now(), updated_at: now() });
const project = {
  project_id: 7,
  name: "P",
  path: "p",
  path_with_namespace: "g/p",
  project_visibility: "private",
  owner_name: "A",
  owner_email: "a@x.io",
  owners: [],
};
const push = (kind: "push" | "tag_push") => pushEvent(7, { kind, eventId: randomUUID() });

/** One event of every kind hook-service consumes. */
function allEvents(): { subject: string; payload: Record<string, unknown> }[] {
  return [
    { subject: Subjects.userCreate, payload: { ...base(), event_name: "user_create", user_id: 2, name: "U", username: "u", email: "u@x.io" } },
    { subject: Subjects.userDestroy, payload: { ...base(), event_name: "user_destroy", user_id: 2, name: "U", username: "u", email: "u@x.io" } },
    { subject: Subjects.projectCreate, payload: { ...base(), event_name: "project_create", ...project } },
    { subject: Subjects.projectDestroy, payload: { ...base(), event_name: "project_destroy", ...project } },
    { subject: Subjects.groupCreate, payload: { ...base(), event_name: "group_create", group_id: 3, name: "G", path: "g", full_path: "g", parent_id: null } },
    { subject: Subjects.tokenRevoke, payload: { event_id: randomUUID(), event_name: "token_revoke", token_id: 4, user_id: 2 } },
    { subject: Subjects.push, payload: push("push") },
    { subject: Subjects.tagPush, payload: push("tag_push") },
  ];
}

async function healthStatus(address: string, service: string): Promise<string | number> {
  const Health = grpc.makeGenericClientConstructor(healthService as grpc.ServiceDefinition, "Health");
  const h = new Health(address, grpc.credentials.createInsecure()) as unknown as {
    check(req: { service: string }, cb: (err: Error | null, res: { status: string | number }) => void): void;
    close(): void;
  };
  try {
    return await new Promise((resolve, reject) => h.check({ service }, (err, r) => (err ? reject(err) : resolve(r.status))));
  } finally {
    h.close();
  }
}

describe.each(impls)("hook-service over $name", (impl) => {
  const test = it.skipIf(impl.skip);
  let h: BusHarness;
  let db: TestDatabase;
  let svc: RunningHookService | undefined;
  let client: PromiseClient<HookServiceDefinition>;

  const start = async () => {
    svc = await startHookService({
      databaseUrl: db.url,
      grpcAddress: "127.0.0.1:0",
      identityServiceAddress: "127.0.0.1:1",
      repoServiceAddress: "127.0.0.1:1",
      deadlineMs: 5_000,
      encryptionKey: "k".repeat(32),
      allowLocalRequests: true,
      bus: h.bus,
      log,
      subjects: h.subjects,
    });
    client = createClient(hookV1.HookService, svc.address, { deadlineMs: 5000 });
    return svc;
  };
  const publish = (subject: string, payload: unknown, msgId?: string) => h.bus.publish(h.subject(subject), payload, msgId ? { msgId } : undefined);
  const eventIds = async (eventName = "") => (await client.ListRecordedEvents({ eventName, limit: 1000 })).events.map((e) => e.eventId);

  beforeEach(async () => {
    if (impl.skip) return;
    h = await impl.setup();
    db = await createTestDatabase("hook_service");
    await start();
  });

  afterEach(async () => {
    if (impl.skip) return;
    client.close();
    await svc?.stop();
    await h.teardown();
    await db.drop();
  });

  test("serves HookService and the standard health service", async () => {
    expect([1, "SERVING"]).toContain(await healthStatus(svc!.address, "quarry.hook.v1.HookService"));
    expect([1, "SERVING"]).toContain(await healthStatus(svc!.address, ""));
    expect(await client.ListRecordedEvents({})).toEqual({ events: [] });
  });

  test("records every identity and repo domain event, listed newest first", async () => {
    const events = allEvents();
    for (const e of events) await publish(e.subject, e.payload);
    const listed = await waitFor(
      async () => {
        const r = await client.ListRecordedEvents({});
        return r.events.length === events.length && r.events;
      },
      { message: `${events.length} recorded events` },
    );

    const ids = listed.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    for (const e of events) {
      const rec = listed.find((r) => r.eventId === e.payload.event_id);
      expect(rec, String(e.payload.event_name)).toBeDefined();
      expect(rec!.subject).toBe(h.subject(e.subject));
      expect(rec!.eventName).toBe(e.payload.event_name);
      expect(JSON.parse(rec!.payloadJson)).toEqual(e.payload);
      expect(new Date(rec!.receivedAt).toISOString()).toBe(rec!.receivedAt);
    }
    const pushes = await client.ListRecordedEvents({ eventName: "push", limit: 0 });
    expect(pushes.events.map((e) => e.eventId)).toEqual([events[6]!.payload.event_id]);
  });

  test("a republished event is recorded once; an event without event_id is keyed by the bus message id", async () => {
    const e = allEvents()[2]!;
    await publish(e.subject, e.payload, `first-${rand()}`);
    // Same event_id under another bus message id: what an outbox replay after the dedupe window looks like.
    await publish(e.subject, { ...e.payload, name: "changed" }, `second-${rand()}`);
    const msgId = `bare-${rand()}`;
    await publish(Subjects.groupCreate, { group_id: 9 }, msgId);
    await waitFor(async () => (await eventIds()).includes(msgId), { message: "event without event_id" });

    const all = await client.ListRecordedEvents({});
    expect(all.events.map((r) => r.eventId).sort()).toEqual([e.payload.event_id, msgId].sort());
    const original = all.events.find((r) => r.eventId === e.payload.event_id)!;
    expect(JSON.parse(original.payloadJson).name).toBe("P"); // the first delivery wins
    const bare = all.events.find((r) => r.eventId === msgId)!;
    expect(bare.eventName).toBe("group_create"); // from the subject
    expect(JSON.parse(bare.payloadJson)).toEqual({ group_id: 9 });
  });

  test("stop() unsubscribes; a restarted service resumes from the durable position", async () => {
    const first = allEvents()[0]!;
    await publish(first.subject, first.payload);
    await waitFor(async () => (await eventIds()).length === 1, { message: "first event" });
    client.close();
    await svc!.stop();
    svc = undefined;

    // With the service gone, a stand-in member of its durable must receive every new message:
    // had the service stayed subscribed, it would have taken some of them.
    const seen: BusMessage<{ event_id: string }>[] = [];
    const identitySubject = h.subjects?.identity ?? "quarry.identity.>";
    const probe: Subscription = await h.bus.subscribe<{ event_id: string }>(
      identitySubject,
      async (m) => {
        seen.push(m);
      },
      { durable: DURABLES.identity },
    );
    const whileStopped = allEvents().slice(0, 4);
    for (const e of whileStopped) await publish(e.subject, e.payload);
    await waitFor(() => seen.length === whileStopped.length, { message: "probe got every event" });
    await probe.unsubscribe();
    expect(seen.map((m) => m.data.event_id)).toEqual(whileStopped.map((e) => e.payload.event_id));

    const prisma = createPrisma(PrismaClient, db.url, 1);
    try {
      expect(await prisma.recordedEvent.count()).toBe(1);
    } finally {
      await prisma.$disconnect();
    }

    await start();
    const later = allEvents()[4]!;
    await publish(later.subject, later.payload);
    await waitFor(async () => (await eventIds()).length === 2, { message: "event after restart" });
    expect((await eventIds()).sort()).toEqual([first.payload.event_id, later.payload.event_id].sort());
  });
});
