// The embedded mode's own runner: an instance runner whose token is kept in the data directory
// (like gitlab-runner's config.toml), registered once and reused on every start.
import fs from "node:fs/promises";
import path from "node:path";
import { createClient, status } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { ciV1 } from "@quarry/proto";
import { startRunner, type Runner } from "@quarry/runner";

export interface BuiltinRunnerOptions {
  dataDir: string;
  ciServiceAddress: string;
  /** The gateway the runner talks to, as any runner would. */
  url: string;
  concurrency?: number;
  pollIntervalMs?: number;
  log: Logger;
}

/** The saved token if ci-service still knows it, else a new instance runner's. */
async function runnerToken(o: BuiltinRunnerOptions, file: string): Promise<string> {
  const ci = createClient(ciV1.CiService, o.ciServiceAddress, { deadlineMs: 10_000 });
  try {
    const saved = (await fs.readFile(file, "utf8").catch(() => "")).trim();
    if (saved) {
      const known = await ci.VerifyRunner({ token: saved, systemId: "" }).then(
        () => true,
        (err: { code?: number }) => {
          if (err.code === status.PERMISSION_DENIED) return false;
          throw err;
        },
      );
      if (known) return saved;
    }
    const created = await ci.CreateRunner({
      runnerType: "instance_type",
      description: "built-in shell runner",
      runUntagged: true,
      accessLevel: "not_protected",
      tagList: ["shell", "quarry"],
    });
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, created.token + "\n", { mode: 0o600 });
    return created.token;
  } finally {
    ci.close();
  }
}

export async function startBuiltinRunner(o: BuiltinRunnerOptions): Promise<Runner> {
  const dir = path.join(o.dataDir, "runner");
  const token = await runnerToken(o, path.join(dir, "token"));
  o.log.info({ url: o.url }, "built-in runner started");
  return startRunner({
    url: o.url,
    token,
    buildsDir: path.join(dir, "builds"),
    concurrency: o.concurrency ?? 2,
    pollIntervalMs: o.pollIntervalMs,
    log: o.log,
  });
}
