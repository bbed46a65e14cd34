// The outside world of the cluster: API calls as a user, runners speaking the runner protocol with
// fetch as gitlab-runner does, a webhook receiver counting deliveries by Idempotency-Key, and a
// front for a git remote counting push-mirror syncs.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ROOT_TOKEN } from "./cluster.ts";

export interface ApiOptions {
  method?: string;
  json?: unknown;
  token?: string;
  headers?: Record<string, string>;
  body?: RequestInit["body"];
}

/** A call to `/api/v4<path>` of the gateway at `base`, as root unless told. */
export function api(base: string, path: string, o: ApiOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { "PRIVATE-TOKEN": o.token ?? ROOT_TOKEN, ...o.headers };
  if (o.json !== undefined) headers["Content-Type"] = "application/json";
  return fetch(`${base}/api/v4${path}`, {
    method: o.method ?? (o.json === undefined && o.body === undefined ? "GET" : "POST"),
    headers,
    body: o.json !== undefined ? JSON.stringify(o.json) : o.body,
    signal: AbortSignal.timeout(30_000),
  });
}

/** The JSON of a response with status `status`; otherwise throws with the body. */
// biome-ignore lint/suspicious/noExplicitAny: GitLab's JSON is read freely here.
export async function expectJson(res: Response | Promise<Response>, status: number): Promise<any> {
  const r = await res;
  const text = await r.text();
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Tries `call` on each base in turn until one answers (a dead gateway refuses the connection). */
export async function onAnyGateway(bases: string[], call: (base: string) => Promise<Response>): Promise<Response> {
  let last: unknown;
  for (let round = 0; round < 50; round++) {
    for (const base of bases) {
      try {
        return await call(base);
      } catch (err) {
        last = err;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw last;
}

export interface HandedOut {
  jobId: number;
  token: string;
  /** The gateway (index) the job request went through. */
  gateway: number;
  runner: string;
}

/**
 * Runner loops: each polls POST /jobs/request on its own gateway (falling back to the other
 * when its gateway is down), and for each job it gets runs `work`. `stop()` ends the loops
 * after their current step.
 */
export function startRunners(
  bases: () => string[],
  token: string,
  loops: { name: string; gateway: number }[],
  work: (job: HandedOut) => Promise<void>,
): { handedOut: HandedOut[]; errors: unknown[]; stop(): Promise<void> } {
  const handedOut: HandedOut[] = [];
  const errors: unknown[] = [];
  let stopped = false;
  const run = async ({ name, gateway }: { name: string; gateway: number }) => {
    while (!stopped) {
      const order = [gateway, 1 - gateway];
      for (const g of order) {
        let res: Response;
        try {
          res = await fetch(`${bases()[g]}/api/v4/jobs/request`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({
              token,
              system_id: `s_${name}`,
              info: { name: "gitlab-runner", version: "17.0.0", platform: "linux", architecture: "amd64", executor: "shell" },
            }),
            signal: AbortSignal.timeout(30_000),
          });
        } catch {
          continue; // that gateway is down: the other one
        }
        if (res.status === 201) {
          const job = (await res.json()) as { id: number; token: string };
          const taken = { jobId: job.id, token: job.token, gateway: g, runner: name };
          handedOut.push(taken);
          try {
            await work(taken);
          } catch (err) {
            errors.push(err);
          }
        } else await res.arrayBuffer();
        break;
      }
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const running = Promise.all(loops.map(run));
  return {
    handedOut,
    errors,
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}

export interface DeliveryReceiver {
  url: string;
  /** Idempotency-Key → deliveries received with it. */
  byKey: Map<string, { event: string; body: Record<string, unknown> }[]>;
  close(): Promise<void>;
}

/** Webhook receiver: 200 to everything, deliveries counted by Idempotency-Key. */
export async function startDeliveryReceiver(): Promise<DeliveryReceiver> {
  const byKey = new Map<string, { event: string; body: Record<string, unknown> }[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const key = String(req.headers["idempotency-key"] ?? "");
      const list = byKey.get(key) ?? [];
      list.push({
        event: String(req.headers["x-gitlab-event"] ?? req.headers["x-service-event"] ?? ""),
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
      });
      byKey.set(key, list);
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    byKey,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface CountingGitFront {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** Repository path (`/<name>.git`) → pushes begun (authenticated receive-pack advertisements). */
  pushes: Map<string, number>;
  close(): Promise<void>;
}

/**
 * An HTTP front for a git remote that counts pushes: every `git push` starts with exactly one
 * `GET …/info/refs?service=git-receive-pack`, the authenticated one counted here (git asks
 * without credentials first and retries with them on 401), whether or not anything is sent.
 */
export async function startCountingGitFront(target: string): Promise<CountingGitFront> {
  const pushes = new Map<string, number>();
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const url = req.url ?? "";
    if (req.headers.authorization && req.method === "GET" && url.endsWith("/info/refs?service=git-receive-pack")) {
      const repo = url.slice(0, url.indexOf("/info/refs"));
      pushes.set(repo, (pushes.get(repo) ?? 0) + 1);
    }
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pushes,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
