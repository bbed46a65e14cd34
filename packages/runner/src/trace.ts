import { crc32 } from "node:zlib";
import type { JobUpdate, RemoteJobResponse, RunnerApi } from "./client.ts";
import { sleep, type RunnerLog } from "./log.ts";
import type { Masker } from "./mask.ts";
import type { FailureReason, JobPayload, JobState } from "./protocol.ts";

/** How the server asked the job to stop: `canceling` (graceful, after_script runs) or canceled/failed/forbidden (at once). */
export type RemoteStop = "canceling" | "abort";

export interface JobTraceOptions {
  api: RunnerApi;
  job: JobPayload;
  masker: Masker;
  log: RunnerLog;
  /** Pause between trace patches, and between retries of the final update. */
  updateIntervalMs: number;
  /** `PUT state=running` this often: the server's sign that the runner is alive. */
  keepaliveIntervalMs: number;
  /** Bytes of log kept; later output is dropped (gitlab-runner's output_limit). */
  outputLimitBytes: number;
  onRemoteStop(stop: RemoteStop): void;
}

export interface FinalState {
  state: Exclude<JobState, "running">;
  failureReason?: FailureReason;
  exitCode?: number;
}

/** Largest single PATCH (gitlab-runner's default trace patch limit). */
const PATCH_LIMIT = 1024 * 1024;
/** Attempts for the closing trace patches and the final update before giving up. */
const FINAL_ATTEMPTS = 10;

type PatchOutcome = "sent" | "abort" | "gone" | "retry";

/**
 * The job log: collects (masked) output and streams it to the server with incremental
 * `PATCH /jobs/:id/trace`, sends keepalive updates, watches `Job-Status` for cancellation and
 * finally reports the job's state. All requests of one job go out one at a time, in order.
 */
export class JobTrace {
  private buffer = Buffer.alloc(64 * 1024);
  private length = 0;
  /** Bytes the server has acknowledged. */
  private sent = 0;
  private truncated = false;
  private stopped = false;
  private aborted = false;
  private timer: NodeJS.Timeout | undefined;
  private tick: Promise<void> = Promise.resolve();
  private lastKeepalive = Date.now();

  constructor(private readonly o: JobTraceOptions) {}

  /** Appends output (masked; a possible secret prefix at the end waits for the next write). */
  write(text: string): void {
    this.append(this.o.masker.push(text));
  }

  /** Writes a line of the runner's own. */
  line(text: string): void {
    this.write(`${text}\n`);
  }

  /** Everything written so far, as the server should end up with it. */
  content(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  start(): void {
    const loop = () => {
      this.timer = setTimeout(() => {
        this.tick = this.incrementalUpdate().finally(() => {
          if (!this.stopped) loop();
        });
      }, this.o.updateIntervalMs);
    };
    loop();
  }

  /** Sends the rest of the log and the final state; returns once the server took it (or gave up). */
  async finish(final: FinalState): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.tick;
    this.append(this.o.masker.flush());
    const update: JobUpdate = {
      state: final.state,
      ...(final.failureReason ? { failure_reason: final.failureReason } : {}),
      ...(final.exitCode !== undefined ? { exit_code: final.exitCode } : {}),
      ...this.checksum(),
    };
    let attempts = 0;
    const retry = async () => {
      attempts++;
      if (attempts >= FINAL_ATTEMPTS) return false;
      await sleep(this.o.updateIntervalMs);
      return true;
    };
    // Like gitlab-runner's finalUpdate: all of the log first, then the state; an abort from the
    // server ends both.
    for (;;) {
      const flushed = await this.flush(retry);
      if (flushed === "retry") return this.giveUp("trace");
      let res: RemoteJobResponse;
      try {
        res = await this.o.api.updateJob(this.o.job, update);
      } catch (err) {
        this.o.log.warn({ err, job: this.o.job.id }, "final job update failed");
        if (await retry()) continue;
        return this.giveUp("update");
      }
      if (res.status === 200 || this.remoteStop(res) || res.status === 404) return;
      if (res.status === 412) {
        // The server's log differs from ours (checksum): resend all of it (trace_reset).
        this.sent = 0;
      } else if (res.status !== 202 && res.status < 500) {
        this.o.log.error({ job: this.o.job.id, status: res.status }, "final job update rejected");
        return;
      }
      if (!(await retry())) return this.giveUp("update");
    }
  }

  private giveUp(what: string): void {
    this.o.log.error({ job: this.o.job.id, what }, "giving up on reporting the job to the server");
  }

  private append(text: string): void {
    if (this.truncated || text === "") return;
    let bytes = Buffer.from(text, "utf8");
    const room = this.o.outputLimitBytes - this.length;
    if (bytes.length > room) {
      this.truncated = true;
      bytes = Buffer.concat([
        bytes.subarray(0, Math.max(room, 0)),
        Buffer.from(
          `\n\x1b[31;1mJob's log exceeded limit of ${this.o.outputLimitBytes} bytes.\n` +
            `Job execution will continue but no more output will be collected.\x1b[0;m\n`,
        ),
      ]);
    }
    if (this.length + bytes.length > this.buffer.length) {
      const grown = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + bytes.length));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    bytes.copy(this.buffer, this.length);
    this.length += bytes.length;
  }

  private checksum(): Pick<JobUpdate, "checksum" | "output"> {
    const checksum = `crc32:${crc32(this.content()).toString(16)}`;
    return { checksum, output: { checksum, bytesize: this.length } };
  }

  private async incrementalUpdate(): Promise<void> {
    if (this.aborted) return;
    await this.flush(async () => false);
    if (this.aborted || Date.now() - this.lastKeepalive < this.o.keepaliveIntervalMs) return;
    this.lastKeepalive = Date.now();
    try {
      const res = await this.o.api.updateJob(this.o.job, { state: "running", ...this.checksum() });
      if (!this.remoteStop(res) && res.status === 404) this.stopRemotely("abort");
    } catch (err) {
      this.o.log.warn({ err, job: this.o.job.id }, "job keepalive failed");
    }
  }

  /** Sends patches until the server has the whole log; `retry` decides whether to try again after a failure. */
  private async flush(retry: () => Promise<boolean>): Promise<PatchOutcome> {
    while (this.sent < this.length && !this.aborted) {
      const outcome = await this.sendPatch();
      if (outcome === "abort" || outcome === "gone") return outcome;
      if (outcome === "retry" && !(await retry())) return "retry";
    }
    return "sent";
  }

  private async sendPatch(): Promise<PatchOutcome> {
    const start = this.sent;
    const end = Math.min(this.length, start + PATCH_LIMIT);
    let res: Awaited<ReturnType<RunnerApi["patchTrace"]>>;
    try {
      res = await this.o.api.patchTrace(this.o.job, start, Buffer.from(this.buffer.subarray(start, end)));
    } catch (err) {
      this.o.log.warn({ err, job: this.o.job.id }, "trace patch failed");
      return "retry";
    }
    if (this.remoteStop(res)) return "abort";
    if (res.status === 202) {
      this.sent = end;
      return "sent";
    }
    if (res.status === 416) {
      // The server holds a different length: continue from there (`Range: 0-<length>`).
      const remote = Number(res.range?.split("-")[1]);
      if (Number.isInteger(remote) && remote >= 0) {
        this.sent = Math.min(remote, this.length);
        return "sent";
      }
    }
    if (res.status === 404) return "gone";
    this.o.log.warn({ job: this.o.job.id, status: res.status }, "trace patch not accepted");
    return "retry";
  }

  /** Reacts to `Job-Status` (and 403) like gitlab-runner: true when the job must stop at once. */
  private remoteStop(res: RemoteJobResponse): boolean {
    if (res.jobStatus === "canceling") this.stopRemotely("canceling");
    if (res.jobStatus === "canceled" || res.jobStatus === "failed" || res.status === 403) {
      this.stopRemotely("abort");
      return true;
    }
    return false;
  }

  private stopRemotely(stop: RemoteStop): void {
    if (stop === "abort") this.aborted = true;
    if (!this.stopped) this.o.onRemoteStop(stop);
  }
}
