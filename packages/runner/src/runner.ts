import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { newSystemId, RunnerApi } from "./client.ts";
import { jobBaseEnvironment } from "./env.ts";
import { runJob } from "./job.ts";
import { silentLog, sleep, type RunnerLog } from "./log.ts";

export interface RunnerOptions {
  /** Server base URL without /api/v4, e.g. http://127.0.0.1:8080. */
  url: string;
  /** Runner authentication token (glrt-...). */
  token: string;
  /** Jobs run in `<buildsDir>/<job id>`. */
  buildsDir: string;
  /** Jobs run at the same time (default 1). */
  concurrency?: number;
  /** Pause after the server had no job (default 3000). */
  pollIntervalMs?: number;
  /** Identifies this runner process to the server; default: kept in `<buildsDir>/.runner_system_id`. */
  systemId?: string;
  log?: RunnerLog;
  /** Environment every job starts from; default: a whitelist of this process's (PATH, HOME, locale, proxies). */
  baseEnv?: Record<string, string>;
  /** Pause between trace patches (default 3000). */
  updateIntervalMs?: number;
  /** Pause between `running` keepalive updates of a job (default 30000). */
  keepaliveIntervalMs?: number;
  /** Job log size limit in bytes (default 4 MiB, gitlab-runner's). */
  outputLimitBytes?: number;
}

export interface Runner {
  /** Stops asking for jobs and waits for the running ones to finish. */
  stop(): Promise<void>;
}

const MAX_BACKOFF_MS = 60_000;

/** The system ID stored in the builds directory, created on first use. */
async function persistentSystemId(buildsDir: string): Promise<string> {
  const file = path.join(buildsDir, ".runner_system_id");
  const stored = (await readFile(file, "utf8").catch(() => "")).trim();
  if (/^[sr]_[0-9a-f]{12}$/.test(stored)) return stored;
  const id = newSystemId();
  await writeFile(file, `${id}\n`);
  return id;
}

/** Checks the runner token (`POST /runners/verify`). */
export function verifyRunner(o: { url: string; token: string; systemId?: string }): Promise<boolean> {
  return new RunnerApi(o.url).verify(o.token, o.systemId);
}

/**
 * Polls the server for jobs (`POST /jobs/request`, long poll aware) and runs up to
 * `concurrency` of them at once with the shell executor.
 */
export function startRunner(o: RunnerOptions): Runner {
  const log = o.log ?? silentLog;
  const api = new RunnerApi(o.url);
  const buildsDir = path.resolve(o.buildsDir);
  const concurrency = Math.max(1, o.concurrency ?? 1);
  const pollIntervalMs = o.pollIntervalMs ?? 3000;
  const polling = new AbortController();
  const running = new Set<Promise<unknown>>();

  const poll = async () => {
    await mkdir(buildsDir, { recursive: true });
    const systemId = o.systemId ?? (await persistentSystemId(buildsDir));
    const context = {
      api,
      buildsDir,
      baseEnv: o.baseEnv ?? jobBaseEnvironment(),
      systemId,
      log,
      updateIntervalMs: o.updateIntervalMs ?? 3000,
      keepaliveIntervalMs: o.keepaliveIntervalMs ?? 30_000,
      outputLimitBytes: o.outputLimitBytes ?? 4 * 1024 * 1024,
    };
    log.info({ url: o.url, buildsDir, concurrency, systemId }, "runner started");
    let lastUpdate: string | null = null;
    let backoffMs = 0;
    const backOff = async (details: object, msg: string) => {
      backoffMs = Math.min(Math.max(backoffMs * 2, 1000), MAX_BACKOFF_MS);
      log.warn({ ...details, retryInMs: backoffMs }, msg);
      await sleep(backoffMs, polling.signal);
    };
    while (!polling.signal.aborted) {
      if (running.size >= concurrency) {
        await Promise.race(running);
        continue;
      }
      let result: Awaited<ReturnType<RunnerApi["requestJob"]>>;
      try {
        result = await api.requestJob(o.token, systemId, lastUpdate, polling.signal);
      } catch (err) {
        if (!polling.signal.aborted) await backOff({ err }, "requesting a job failed");
        continue;
      }
      if (result.job) {
        backoffMs = 0;
        log.info({ job: result.job.id }, "job received");
        const job = runJob(result.job, context)
          .catch((err) => log.error({ err, job: result.job.id }, "job crashed"))
          .finally(() => running.delete(job));
        running.add(job);
      } else if ("lastUpdate" in result) {
        backoffMs = 0;
        lastUpdate = result.lastUpdate ?? lastUpdate;
        await sleep(pollIntervalMs, polling.signal);
      } else {
        await backOff({ status: result.status }, "job request rejected");
      }
    }
  };
  const loop = poll().catch((err) => log.error({ err }, "runner stopped"));

  return {
    async stop() {
      polling.abort();
      await loop;
      await Promise.all(running);
      log.info({}, "runner stopped");
    },
  };
}
