// The skeleton against real PostgreSQL (DATABASE_URL, else an embedded server): start order,
// reverse stop, and a start failing half-way leaving no pool, connection or handle behind.
import net from "node:net";
import { InProcessBus, type Subscription } from "@quarry/bus";
import { migrationChecksum } from "@quarry/database";
import { silentLogger } from "@quarry/logger";
import { createTestDatabase, testPostgresServer, type TestDatabase } from "@quarry/testing";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PrismaClient } from "./generated/prisma/client.ts";
import { startService, type ServiceDefinition } from "./index.ts";

const migration = (name: string, sql: string) => ({ name, sql, checksum: migrationChecksum(sql) });
const migrations = [
  migration(
    "20261125000000_init",
    `CREATE TABLE "Note" (id SERIAL PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE outbox_events (id BIGSERIAL PRIMARY KEY, subject TEXT NOT NULL, payload JSONB NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT now(), published_at TIMESTAMPTZ);`,
  ),
];

const log = silentLogger();
let db: TestDatabase;
let bus: InProcessBus;

beforeEach(async () => {
  db = await createTestDatabase("service_skeleton");
  bus = new InProcessBus();
});
afterEach(async () => {
  await bus.close();
  await db.drop();
});

/** Sessions open on the test database, other than the one asking. */
async function sessionsOn(name: string): Promise<number> {
  const client = new pg.Client({ connectionString: await testPostgresServer() });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name]);
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

/** Handles (sockets, timers, …) the process holds, counted by kind. */
function handles(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) counts.set(r, (counts.get(r) ?? 0) + 1);
  return counts;
}

/** Kinds of handle held more often now than in `before` (the runner's own may have ended meanwhile). */
function handlesAddedSince(before: Map<string, number>): Record<string, number> {
  const added: Record<string, number> = {};
  for (const [kind, n] of handles()) if (n > (before.get(kind) ?? 0)) added[kind] = n - (before.get(kind) ?? 0);
  return added;
}

const settle = () => new Promise((r) => setTimeout(r, 50));

/** A service definition recording every step (and every undo) in `events`. */
function recordingService(events: string[], grpcAddress = "127.0.0.1:0"): ServiceDefinition<typeof PrismaClient, { prisma: PrismaClient }> {
  const subscription = (name: string): Subscription => ({ unsubscribe: async () => void events.push(`unsubscribe ${name}`) });
  return {
    name: "test-service",
    databaseUrl: db.url,
    grpcAddress,
    bus,
    log,
    migrations,
    PrismaClient,
    poolSize: 2,
    async prepare() {
      events.push("prepare");
    },
    async deps(ctx) {
      // A real query: the pool holds an open connection from here on.
      await ctx.prisma.note.create({ data: { body: "migrated" } });
      events.push("deps");
      ctx.onStop(() => events.push("close first client"));
      ctx.onStop(() => events.push("close second client"));
      const outbox = ctx.outbox();
      const stop = outbox.stop.bind(outbox);
      outbox.stop = async () => {
        events.push("outbox stop");
        await stop();
      };
      const start = outbox.start.bind(outbox);
      outbox.start = (ms) => {
        events.push("outbox start");
        start(ms);
      };
      return { prisma: ctx.prisma };
    },
    handlers() {
      events.push("handlers");
    },
    async subscribe() {
      events.push("subscribe");
      return [subscription("a"), subscription("b")];
    },
    workers() {
      events.push("workers");
      const worker = (name: string) => ({ stop: () => void events.push(`stop ${name}`) });
      return [worker("first worker"), worker("second worker")];
    },
  };
}

describe("startService", () => {
  it("starts in order, serves, and stops in reverse order with no connection left", async () => {
    const events: string[] = [];
    const service = await startService(recordingService(events));
    expect(events).toEqual(["prepare", "deps", "handlers", "subscribe", "outbox start", "workers"]);
    expect(await service.prisma.note.count()).toBe(1); // migrations ran before deps()
    expect(service.address).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(service.address).not.toBe("127.0.0.1:0");
    expect(await sessionsOn(db.name)).toBeGreaterThan(0);

    events.length = 0;
    await service.stop();
    expect(events).toEqual([
      "stop second worker",
      "stop first worker",
      "outbox stop",
      "unsubscribe a",
      "unsubscribe b",
      "close second client",
      "close first client",
    ]);
    // The server stopped: nothing listens on its port any more.
    const port = Number(service.address.split(":")[1]);
    await expect(connect(port)).rejects.toThrow();
    expect(await sessionsOn(db.name)).toBe(0);
    await service.stop(); // a second stop is a no-op
    expect(events).toHaveLength(7);
  });

  it("undoes what started when listen fails half-way (port taken): no pool, session or handle left", async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      await settle();
      const before = handles();
      const events: string[] = [];
      await expect(startService(recordingService(events, `127.0.0.1:${port}`))).rejects.toThrow();
      expect(events).toEqual([
        "prepare",
        "deps",
        "handlers",
        "subscribe",
        "outbox start",
        "workers",
        "stop second worker",
        "stop first worker",
        "outbox stop",
        "unsubscribe a",
        "unsubscribe b",
        "close second client",
        "close first client",
      ]);
      expect(await sessionsOn(db.name)).toBe(0);
      // Timers of the outbox, sockets of the pool and the gRPC server: all gone.
      await settle();
      expect(handlesAddedSince(before)).toEqual({});
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });

  it("undoes what deps() registered when deps() itself fails", async () => {
    const events: string[] = [];
    const def = recordingService(events);
    const deps = def.deps;
    def.deps = async (ctx) => {
      await deps(ctx);
      throw new Error("no identity-service");
    };
    await expect(startService(def)).rejects.toThrow("no identity-service");
    expect(events).toEqual(["prepare", "deps", "close second client", "close first client"]);
    expect(await sessionsOn(db.name)).toBe(0);
  });

  it("starts nothing when the migrations fail", async () => {
    const events: string[] = [];
    const def = { ...recordingService(events), migrations: [migration("20261125000000_broken", "CREATE TABLE")] };
    await expect(startService(def)).rejects.toThrow();
    expect(events).toEqual([]);
    expect(await sessionsOn(db.name)).toBe(0);
  });
});

function connect(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.end();
      resolve();
    });
    socket.on("error", reject);
  });
}
