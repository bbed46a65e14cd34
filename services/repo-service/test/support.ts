// Shared set-up for the handler tests: a real PostgreSQL database (createTestDatabase) with the
// migrations applied, a temp storage root, and plain git to inspect what the handlers wrote.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { InProcessBus } from "@quarry/bus";
import { applyMigrations } from "@quarry/database";
import { silentLogger } from "@quarry/logger";
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import type { CreateRepositoryRequest__Output } from "@quarry/proto/types/repo/v1/CreateRepositoryRequest";
import { createPrisma } from "../src/db.ts";
import type { RepoDeps } from "../src/deps.ts";
import { migrations } from "../src/generated/migrations.ts";

export interface TestContext {
  deps: RepoDeps;
  db: TestDatabase;
  /** Parent of the storage root, so tests can check nothing escapes the root. */
  sandbox: string;
  close(): Promise<void>;
}

export async function setUp(prefix: string): Promise<TestContext> {
  const db = await createTestDatabase(prefix);
  await applyMigrations(db.url, migrations, { log: () => {} });
  const sandbox = mkdtempSync(path.join(os.tmpdir(), "quarry-repo-test-"));
  const bus = new InProcessBus();
  const prisma = createPrisma(db.url, 4);
  const deps: RepoDeps = { prisma, bus, log: silentLogger(), storageRoot: path.join(sandbox, "repositories") };
  return {
    deps,
    db,
    sandbox,
    async close() {
      await prisma.$disconnect();
      await bus.close();
      await db.drop();
      rmSync(sandbox, { recursive: true, force: true });
    },
  };
}

let nextProjectId = 1;

/** A fresh project id and its hashed disk path, as identity-service derives it. */
export function newProject(): { projectId: number; diskPath: string } {
  const projectId = nextProjectId++;
  const h = createHash("sha256").update(String(projectId)).digest("hex");
  return { projectId, diskPath: `@hashed/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.git` };
}

export function createRequest(overrides: Partial<CreateRepositoryRequest__Output> = {}): CreateRepositoryRequest__Output {
  return {
    ...newProject(),
    defaultBranch: "main",
    initializeWithReadme: false,
    author: { name: "Ada Lovelace", email: "ada@example.com" },
    projectName: "My Project",
    projectDescription: "",
    ...overrides,
  };
}

/** Runs git in a bare repository and returns trimmed stdout (throws on failure). */
export function gitIn(gitDir: string, ...args: string[]): string {
  return execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trimEnd();
}

/** Whether git exits 0. */
export function gitOk(gitDir: string, ...args: string[]): boolean {
  try {
    gitIn(gitDir, ...args);
    return true;
  } catch {
    return false;
  }
}
