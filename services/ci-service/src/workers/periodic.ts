// Runs background workers every interval in this replica. Each worker is safe to run in several
// replicas at once, so there is no leader election: every replica runs every worker.
import type { Logger } from "@quarry/logger";

export interface Worker {
  name: string;
  runOnce(): Promise<unknown>;
}

export interface RunningWorkers {
  /** Stops scheduling runs and waits for the ones in flight. */
  stop(): Promise<void>;
}

/** Runs each worker `intervalMs` after its previous run ended; a failed run is logged and retried next time. */
export function startWorkers(workers: readonly Worker[], intervalMs: number, log: Logger): RunningWorkers {
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();

  const schedule = (worker: Worker) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const run = worker
        .runOnce()
        .then(
          () => {},
          (err: unknown) => log.error({ err, worker: worker.name }, "worker run failed"),
        )
        .finally(() => {
          inFlight.delete(run);
          schedule(worker);
        });
      inFlight.add(run);
    }, intervalMs);
    timer.unref();
    timers.add(timer);
  };
  for (const worker of workers) schedule(worker);

  return {
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(inFlight);
    },
  };
}
