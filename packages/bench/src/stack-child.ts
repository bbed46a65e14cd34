// Runs the whole stack in its own process so the load generator does not share its event loop.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { databaseUrlFor } from "@quarry/database";
import { createLogger } from "@quarry/logger";
import { startStack } from "@quarry/standalone";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-bench-"));
// As root, the embedded PostgreSQL runs as "postgres" and must be able to enter this directory.
fs.chmodSync(dataDir, 0o755);
const prefix = `bench_${process.pid}`;
const stack = await startStack({
  dataDir,
  host: "127.0.0.1",
  port: 0,
  databaseServerUrl: process.env.BENCH_DATABASE_URL || undefined,
  databasePrefix: prefix,
  rootToken: process.env.BENCH_ROOT_TOKEN!,
  catFilePoolSize: process.env.BENCH_CATFILE_POOL_SIZE ? Number(process.env.BENCH_CATFILE_POOL_SIZE) : undefined,
  // As `pnpm start` runs it: the gateway and repo-service on threads of their own.
  threads: true,
  log: createLogger("bench-stack", "error"),
});
process.send!({ url: stack.url, collabDatabaseUrl: databaseUrlFor(stack.databaseServerUrl, `${prefix}_collab`) });
process.on("message", async (m) => {
  if (m === "stop") {
    await stack.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});
