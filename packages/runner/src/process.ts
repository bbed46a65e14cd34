import { spawn } from "node:child_process";
import { constants } from "node:os";

export interface ProcessOptions {
  cwd: string;
  env: Record<string, string>;
  /** Receives stdout and stderr as they arrive. */
  onOutput(text: string): void;
  /** Aborting kills the whole process group. */
  signal?: AbortSignal;
}

export interface ProcessResult {
  /** Exit status; 128 + signal number when killed by a signal (as a shell reports it). */
  exitCode: number;
  /** Whether `signal` fired while the process ran. */
  aborted: boolean;
}

/** After SIGTERM, how long the group gets before SIGKILL. */
const KILL_GRACE_MS = 5_000;
/**
 * After the main process exits, how long to wait for its output pipes to close: a process that
 * left our group (setsid) may hold them open forever.
 */
const DRAIN_MS = 2_000;

/**
 * Runs a command in its own process group (detached) so that everything it starts can be
 * killed together: on abort (SIGTERM, then SIGKILL) and after it exits (leftover background
 * processes, as gitlab-runner's shell executor does).
 */
export function runProcess(command: string, args: string[], o: ProcessOptions): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: o.cwd, env: o.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const pid = child.pid;
    const killGroup = (signal: NodeJS.Signals) => {
      if (pid === undefined) return;
      try {
        process.kill(-pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      aborted = true;
      killGroup("SIGTERM");
      killTimer = setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS);
    };
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener("abort", onAbort, { once: true });

    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding("utf8");
      stream.on("data", (text: string) => o.onOutput(text));
    }
    child.on("error", (err) => {
      o.signal?.removeEventListener("abort", onAbort);
      reject(err);
    });
    child.on("exit", (code, signal) => {
      o.signal?.removeEventListener("abort", onAbort);
      clearTimeout(killTimer);
      killGroup("SIGKILL");
      const exitCode = code ?? 128 + (signal ? constants.signals[signal] : 0);
      const drained = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, DRAIN_MS);
      child.on("close", () => {
        clearTimeout(drained);
        resolve({ exitCode, aborted });
      });
    });
  });
}
