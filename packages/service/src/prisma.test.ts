// The skeleton's Prisma client against real PostgreSQL: interactive transactions get the
// project's limits, not Prisma's 5 s default that aborted real work on a loaded machine.
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "./generated/prisma/client.ts";
import { createPrisma, TRANSACTION_OPTIONS } from "./prisma.ts";

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
});
