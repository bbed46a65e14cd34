// The skeleton's Prisma client against real PostgreSQL: interactive transactions get the
// project's limits, not Prisma's 5 s default that aborted real work on a loaded machine.
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "./generated/prisma/client.ts";
import { createPrisma, oneQueryAtATime, TRANSACTION_OPTIONS } from "./prisma.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase("service_prisma");
});
afterAll(() => db?.drop());

describe("createPrisma", () => {
  it("lets an interactive transaction run past Prisma's 5 s default", async () => {
    expect(TRANSACTION_OPTIONS.timeout).toBeGreaterThan(5_000);
    const prisma = createPrisma(PrismaClient, db.url, 2);
    try {
      const answer = await prisma.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_sleep(5.5)`;
        return tx.$queryRaw<{ ok: number }[]>`SELECT 1 AS ok`;
      });
      expect(answer).toEqual([{ ok: 1 }]);
    } finally {
      await prisma.$disconnect();
    }
  }, 30_000);

  it("hands a transaction's side-by-side queries to its connection one at a time, without pg's deprecated queueing", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on("warning", onWarning);
    // What the adapter does in an interactive transaction: one pooled connection, queries sent as
    // the query plan reaches them (several at once for a read with many relations).
    const pool = oneQueryAtATime(new pg.Pool({ connectionString: db.url, max: 1 }));
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const sql = (n: number) => ({ text: "SELECT $1::int AS n, pg_sleep(0.02)::text AS slept", values: [n], rowMode: "array" as const });
      const answers = await Promise.all([1, 2, 3].map((n) => client.query(sql(n))));
      expect(answers.map((r) => r.rows[0]?.[0])).toEqual([1, 2, 3]);
      // A failed query does not hold up the ones behind it (PostgreSQL refuses those: the transaction is aborted).
      const settled = await Promise.allSettled([client.query("SELECT 1/0"), client.query("SELECT 1")]);
      expect(settled.map((r) => r.status)).toEqual(["rejected", "rejected"]);
      await client.query("ROLLBACK");
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((m) => m.includes("already executing a query"))).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      client.release();
      await pool.end();
    }
  });

  it("gives Prisma a pool that $disconnect() closes", async () => {
    const prisma = createPrisma(PrismaClient, db.url, 2);
    expect(await prisma.$queryRaw<{ ok: number }[]>`SELECT 1 AS ok`).toEqual([{ ok: 1 }]);
    await prisma.$disconnect();
    const probe = new pg.Client({ connectionString: db.url });
    await probe.connect();
    try {
      const { rows } = await probe.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");
      expect(rows[0]?.n).toBe(0);
    } finally {
      await probe.end();
    }
  });
});
