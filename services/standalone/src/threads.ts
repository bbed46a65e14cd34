import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { MessageChannel, type MessagePort, Worker } from "node:worker_threads";
import { type EventBus, serveBusOnPort } from "@quarry/bus";
import type { MetricsJson } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import type { MetricsAnswer, ThreadCall, ThreadData, ThreadMessage } from "./service-thread.ts";

type Ready = Extract<ThreadMessage, { t: "ready" }>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface ServiceThread {
  ready: Ready;
  /** The worker's thread id (the main thread's is 0). */
  threadId: number;
  /** One operation on the thread's service (service-thread.ts's ThreadCall). */
  call(op: DistributiveOmit<Exclude<ThreadCall, { op: "stop" }>, "call">): Promise<unknown>;
  /** Stops the service, then the thread, then the thread's bus subscriptions. */
  stop(): Promise<void>;
}

/**
 * The worker for service-thread: the bundle's own file next to main.js; from TypeScript source
 * (tests, the bench) the same file through tsx, registered inside the worker before it loads.
 */
function newWorker(data: ThreadData, transfer: MessagePort[]): Worker {
  const options = { workerData: data, transferList: transfer };
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./service-thread.js", import.meta.url), options);
  // tsx's ESM API (its package exports map `tsx/esm/api` to this file for `import`).
  const tsxRoot = path.dirname(createRequire(import.meta.url).resolve("tsx/package.json"));
  const tsx = pathToFileURL(path.join(tsxRoot, "dist/esm/api/index.mjs")).href;
  const entry = new URL("./service-thread.ts", import.meta.url).href;
  const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { ...options, eval: true });
}

/**
 * Starts a service in a worker thread of this process, with `bus` served to it. Resolves when
 * the service listens; rejects when it fails to start. `onExit` hears of a thread that ends
 * without being stopped (a crash): the embedded mode then stops, as a crashed process would.
 * `metricsSources` answers the thread's asking for the other registries (the gateway's /metrics).
 */
export async function startServiceThread(
  data: DistributiveOmit<ThreadData, "busPort">,
  bus: EventBus,
  log: Logger,
  onExit: (err: Error) => void,
  metricsSources?: () => Promise<MetricsJson[]>,
): Promise<ServiceThread> {
  const { port1, port2 } = new MessageChannel();
  const stopBus = serveBusOnPort(bus, port1);
  const worker = newWorker({ ...data, busPort: port2 } as ThreadData, [port2]);
  const answers = new Map<number, { resolve: (v: unknown) => void; reject: (err: Error) => void }>();
  let nextCall = 1;
  let stopping = false;
  let exited = false;
  const failAll = (err: Error) => {
    for (const a of answers.values()) a.reject(err);
    answers.clear();
  };
  const ready = await new Promise<Ready>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`${data.kind} thread exited with ${code} while starting`)));
    worker.on("message", (m: ThreadMessage) => {
      if (m.t === "ready") return resolve(m);
      if (m.t === "metrics") {
        const answer = (result: MetricsJson[]) => worker.postMessage({ op: "metricsAnswer", ask: m.ask, result } satisfies MetricsAnswer);
        (metricsSources?.() ?? Promise.resolve([])).then(answer, (err: unknown) => {
          log.warn({ err }, "metrics of the other services could not be collected");
          answer([]);
        });
        return;
      }
      const a = answers.get(m.call);
      answers.delete(m.call);
      if (m.error === undefined) a?.resolve(m.result);
      else a?.reject(new Error(m.error));
    });
  }).catch(async (err) => {
    await worker.terminate();
    await stopBus();
    throw err;
  });
  worker.removeAllListeners("error").removeAllListeners("exit");
  worker.on("error", (err) => {
    log.error({ err, thread: data.kind }, "service thread failed");
    failAll(err);
  });
  worker.on("exit", (code) => {
    exited = true;
    if (stopping) return;
    const err = new Error(`${data.kind} thread exited with ${code}`);
    failAll(err);
    onExit(err);
  });
  const call = (op: object) =>
    new Promise<unknown>((resolve, reject) => {
      const n = nextCall++;
      answers.set(n, { resolve, reject });
      worker.postMessage({ ...op, call: n });
    });
  return {
    ready,
    threadId: worker.threadId,
    call,
    stop: async () => {
      stopping = true;
      if (!exited) await call({ op: "stop" }).catch((err) => log.warn({ err, thread: data.kind }, "thread stop failed"));
      await worker.terminate();
      await stopBus();
    },
  };
}
