// A worker thread of the embedded mode: runs the gateway or repo-service on its own event loop
// (the second core), with the main thread's bus reached through a PortBus. threads.ts starts it.
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { PortBus } from "@quarry/bus";
import { createMetrics, type MetricsJson } from "@quarry/grpc";
import type { GatewayOptions } from "@quarry/gateway";
import { createLogger } from "@quarry/logger";
import type { RepoServiceOptions } from "@quarry/repo-service";

/** What threads.ts hands a thread (structured-cloneable: no functions, no loggers, no buses). */
export type ThreadData =
  | { kind: "gateway"; options: Omit<GatewayOptions, "bus" | "log">; logLevel: string; busPort: MessagePort }
  | { kind: "repo"; options: Omit<RepoServiceOptions, "bus" | "log" | "storageMoveHooks" | "metrics">; logLevel: string; busPort: MessagePort };

/** Main → thread: one operation, answered with {call, result} or {call, error}. */
export type ThreadCall =
  | { call: number; op: "stop" }
  | { call: number; op: "fetchSettings"; identityAddress: string; deadlineMs: number }
  | {
      call: number;
      op: "startSsh";
      identityAddress: string;
      deadlineMs: number;
      host?: string;
      port: number;
      hostKeyPath: string;
      base: string;
      sshHost?: string;
    }
  | { call: number; op: "setSsh"; sshPort: number; sshHost: string }
  | { call: number; op: "metrics" };

/** Main → gateway thread: the other registries it asked for (ThreadMessage "metrics"). */
export type MetricsAnswer = { op: "metricsAnswer"; ask: number; result: MetricsJson[] };

/** Thread → main: started (with what the main thread needs to know), or an answer. */
export type ThreadMessage =
  | { t: "ready"; address?: string; url?: string; port?: number }
  | { t: "answer"; call: number; result?: unknown; error?: string }
  | { t: "metrics"; ask: number };

const data = workerData as ThreadData;
const port = parentPort!;
const bus = new PortBus(data.busPort);
const log = createLogger("quarry", data.logLevel).child({ service: data.kind === "gateway" ? "gateway" : "repo-service" });
const post = (m: ThreadMessage) => port.postMessage(m);

/** The other registries, asked of the main thread (which asks the repo thread). */
const asked = new Map<number, (result: MetricsJson[]) => void>();
let nextAsk = 1;
const otherMetrics = () =>
  new Promise<MetricsJson[]>((resolve) => {
    const ask = nextAsk++;
    asked.set(ask, resolve);
    post({ t: "metrics", ask });
  });

type Handler = (m: ThreadCall) => Promise<unknown>;
let handle: Handler;
let stopService: () => Promise<void>;

if (data.kind === "gateway") {
  const { startGateway } = await import("@quarry/gateway");
  const gateway = await startGateway({ ...data.options, bus, log, metricsSources: otherMetrics });
  stopService = () => gateway.stop();
  handle = async (m) => {
    if (m.op !== "setSsh") throw new Error(`gateway thread: no operation ${m.op}`);
    gateway.deps.config.sshPort = m.sshPort;
    gateway.deps.config.sshHost = m.sshHost;
  };
  post({ t: "ready", url: gateway.url, port: gateway.port });
} else {
  const { startRepoService } = await import("@quarry/repo-service");
  const { repoControl } = await import("./repo-control.ts");
  // This thread's own registry, with its event loop's process metrics; read by the main thread.
  const metrics = createMetrics("repo-service", { log });
  const repo = await startRepoService({ ...data.options, bus, log, metrics });
  const control = repoControl(repo, log);
  const stops: (() => Promise<void>)[] = [() => repo.stop()];
  stopService = async () => {
    for (const stop of stops.reverse()) await stop().catch((err) => log.warn({ err }, "stop failed"));
  };
  handle = async (m) => {
    switch (m.op) {
      case "metrics":
        return metrics.json();
      case "fetchSettings":
        return control.fetchSettings(m.identityAddress, m.deadlineMs);
      case "startSsh": {
        const ssh = await control.startSsh(m);
        stops.push(() => ssh.stop());
        return { port: ssh.port };
      }
      default:
        throw new Error(`repo thread: no operation ${m.op}`);
    }
  };
  post({ t: "ready", address: repo.address });
}

port.on("message", async (m: ThreadCall | MetricsAnswer) => {
  if (m.op === "metricsAnswer") {
    asked.get(m.ask)?.(m.result);
    asked.delete(m.ask);
    return;
  }
  try {
    if (m.op === "stop") {
      await stopService();
      await bus.close();
      post({ t: "answer", call: m.call });
      return;
    }
    post({ t: "answer", call: m.call, result: await handle(m) });
  } catch (err) {
    post({ t: "answer", call: m.call, error: err instanceof Error ? err.message : String(err) });
  }
});
