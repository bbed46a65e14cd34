import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { RunnerApi } from "../src/client.ts";
import { jobBaseEnvironment } from "../src/env.ts";
import { runJob, type JobContext } from "../src/job.ts";
import { silentLog } from "../src/log.ts";
import type { JobPayload } from "../src/protocol.ts";
import { startFakeGitLab, type FakeGitLab } from "./fake-gitlab.ts";

export const tempDir = (prefix: string) => mkdtemp(path.join(tmpdir(), `quarry-runner-${prefix}-`));

/** Runs one job against the fake server the way the poll loop would, with short intervals. */
export async function runOnServer(gitlab: FakeGitLab, payload: JobPayload, over: Partial<JobContext> = {}) {
  const server = gitlab.assign(payload);
  const buildsDir = over.buildsDir ?? (await tempDir("builds"));
  const final = await runJob(payload, {
    api: new RunnerApi(gitlab.url),
    buildsDir,
    baseEnv: jobBaseEnvironment(),
    systemId: "s_0123456789ab",
    log: silentLog,
    updateIntervalMs: 20,
    keepaliveIntervalMs: 60_000,
    outputLimitBytes: 4 * 1024 * 1024,
    ...over,
  });
  return { final, server, log: server.trace.toString(), buildsDir };
}

/** The job log without ANSI colours and section markers. */
export function plain(log: string): string {
  return log.replace(/section_(start|end):\d+:\w+\r\x1b\[0K/g, "").replace(/\x1b\[[0-9;]*m/g, "");
}

/** A fake GitLab for the whole test file (filled in before the first test, closed after the last). */
export function useFakeGitLab(): FakeGitLab {
  const handle = {} as FakeGitLab;
  beforeAll(async () => {
    Object.assign(handle, await startFakeGitLab());
  });
  afterAll(() => handle.close());
  return handle;
}
