import { EventEmitter } from "node:events";

/**
 * Wakes job requests that are long-polling in this process when jobs become pending here.
 * Other replicas' requests notice on their next poll tick (see request-job.ts), so a lost
 * wake-up only costs latency, never a job.
 */
export class JobQueueSignal {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  notify(): void {
    this.emitter.emit("pending");
  }

  /** Resolves on the next notify() or after `ms`, whichever comes first; `abort` ends it early. */
  wait(ms: number, abort?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.emitter.off("pending", done);
        abort?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.emitter.once("pending", done);
      abort?.addEventListener("abort", done, { once: true });
    });
  }
}
