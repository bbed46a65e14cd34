// Shared set-up for ci-service handler tests: a real PostgreSQL database with the migrations
// applied and a local-disk object store in a temp directory.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyMigrations } from "@quarry/database";
import { silentLogger } from "@quarry/logger";
import { LocalDiskObjectStore } from "@quarry/object-store";
import { createTestDatabase } from "@quarry/testing";
import { createPrisma } from "../src/db.ts";
import type { CiDeps } from "../src/deps.ts";
import { migrations } from "../src/generated/migrations.ts";

export interface TestContext {
  deps: CiDeps;
  close(): Promise<void>;
}

export async function setUp(prefix: string): Promise<TestContext> {
  const db = await createTestDatabase(prefix);
  await applyMigrations(db.url, migrations, { log: () => {} });
  const root = mkdtempSync(path.join(os.tmpdir(), "quarry-ci-test-"));
  const prisma = createPrisma(db.url, 4);
  const deps: CiDeps = { prisma, objectStore: new LocalDiskObjectStore({ root, bucket: "artifacts" }), storageKind: "local", log: silentLogger() };
  return {
    deps,
    async close() {
      await prisma.$disconnect();
      await db.drop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
