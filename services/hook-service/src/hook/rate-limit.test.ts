import { applyMigrations } from "@quarry/database";
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrisma } from "@quarry/service";
import { PrismaClient } from "../generated/prisma/client.ts";
import { DEFAULT_HOOK_SETTINGS } from "../deps.ts";
import { migrations } from "../generated/migrations.ts";
import { checkRateLimit } from "./rate-limit.ts";

describe("checkRateLimit", () => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  beforeAll(async () => {
    db = await createTestDatabase("hook_rate");
    await applyMigrations(db.url, migrations, { log: () => {} });
    prisma = createPrisma(PrismaClient, db.url, 5);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  const deps = () => ({ prisma, settings: DEFAULT_HOOK_SETTINGS });
  const outcome = (key: string, at: Date) =>
    checkRateLimit(deps(), key, at).then(
      () => "ok",
      (e: { code: number }) => e.code,
    );

  it("allows 5 in a window that opens with the first request, then refuses until it has passed", async () => {
    const t0 = new Date("2030-01-01T10:00:59.500Z"); // a calendar minute boundary falls inside the window
    for (let i = 0; i < 5; i++) expect(await outcome("k", new Date(t0.getTime() + i * 100))).toBe("ok");
    expect(await outcome("k", new Date(t0.getTime() + 1_000))).toBe(8); // RESOURCE_EXHAUSTED
    expect(await outcome("k", new Date(t0.getTime() + 59_000))).toBe(8);
    expect(await outcome("other", new Date(t0.getTime() + 1_000))).toBe("ok");
    expect(await outcome("k", new Date(t0.getTime() + 60_000))).toBe("ok");
  });

  it("counts concurrent requests exactly", async () => {
    const at = new Date("2030-01-02T00:00:00Z");
    const results = await Promise.all(Array.from({ length: 12 }, () => outcome("burst", at)));
    expect(results.filter((r) => r === "ok")).toHaveLength(5);
  });
});
