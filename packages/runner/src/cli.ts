#!/usr/bin/env node
import { parseArgs } from "node:util";
import { createLogger } from "@quarry/logger";
import { loadRunnerEnv } from "./env.ts";
import { startRunner, verifyRunner } from "./runner.ts";

const usage = `Usage: quarry-runner <run|verify> [--url URL] [--token TOKEN]

  run     poll the server for jobs and run them with the shell (bash) executor
  verify  check the runner token (exit status 0 = valid)

Environment: QUARRY_RUNNER_URL, QUARRY_RUNNER_TOKEN, QUARRY_RUNNER_BUILDS_DIR (./data/builds),
QUARRY_RUNNER_CONCURRENCY (1), LOG_LEVEL (info). --url and --token override the environment.
`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { url: { type: "string" }, token: { type: "string" }, help: { type: "boolean", short: "h" } },
});
const command = positionals[0];
if (values.help || (command !== "run" && command !== "verify")) {
  process.stderr.write(usage);
  process.exit(values.help ? 0 : 2);
}
const env = loadRunnerEnv();
const url = values.url ?? env.QUARRY_RUNNER_URL;
const token = values.token ?? env.QUARRY_RUNNER_TOKEN;
if (!url || !token) {
  process.stderr.write(`quarry-runner: the server URL and the runner token are required (--url/--token or QUARRY_RUNNER_URL/QUARRY_RUNNER_TOKEN)\n`);
  process.exit(2);
}

if (command === "verify") {
  const valid = await verifyRunner({ url, token }).catch((err: Error) => {
    process.stderr.write(`quarry-runner: ${err.message}\n`);
    return false;
  });
  process.stdout.write(valid ? "Verifying runner... is valid\n" : "Verifying runner... is not valid\n");
  process.exit(valid ? 0 : 1);
}

const log = createLogger("quarry-runner", env.LOG_LEVEL);
const runner = startRunner({ url, token, buildsDir: env.QUARRY_RUNNER_BUILDS_DIR, concurrency: env.QUARRY_RUNNER_CONCURRENCY, log });
// First signal: finish the running jobs, then exit; a second one exits at once.
let stopping = false;
const onSignal = (signal: NodeJS.Signals) => {
  if (stopping) process.exit(1);
  stopping = true;
  log.info({ signal }, "stopping: waiting for running jobs");
  void runner.stop().then(() => process.exit(0));
};
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);
