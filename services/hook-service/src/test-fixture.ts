// Shared by the hook-service tests: a running service on a fresh database, an in-process bus, a
// gRPC client, and real HTTP receivers on loopback.
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { InProcessBus } from "@quarry/bus";
import { createClient, type PromiseClient } from "@quarry/grpc";
import { silentLogger } from "@quarry/logger";
import { hookV1, type HookServiceDefinition } from "@quarry/proto";
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import type { HookSettings } from "./deps.ts";
import { startHookService, type RunningHookService } from "./server.ts";

export interface Fixture {
  db: TestDatabase;
  bus: InProcessBus;
  svc: RunningHookService;
  client: PromiseClient<HookServiceDefinition>;
  stop(): Promise<void>;
}

export const FAST: Partial<HookSettings> = { timeoutMs: 2000, maxAttempts: 3, retryBaseMs: 20, pollIntervalMs: 50, instanceUrl: "https://quarry.test" };

export async function startFixture(
  name: string,
  o: { allowLocalRequests?: boolean; settings?: Partial<HookSettings>; smtpUrl?: string } = {},
): Promise<Fixture> {
  const db = await createTestDatabase(name);
  const bus = new InProcessBus({ log: silentLogger() });
  const svc = await startHookService({
    databaseUrl: db.url,
    grpcAddress: "127.0.0.1:0",
    identityServiceAddress: "127.0.0.1:1",
    repoServiceAddress: "127.0.0.1:1",
    deadlineMs: 5_000,
    encryptionKey: "k".repeat(32),
    allowLocalRequests: o.allowLocalRequests ?? true,
    settings: { ...FAST, ...o.settings },
    smtpUrl: o.smtpUrl,
    bus,
    log: silentLogger(),
  });
  const client = createClient(hookV1.HookService, svc.address, { deadlineMs: 10_000 });
  return {
    db,
    bus,
    svc,
    client,
    async stop() {
      client.close();
      await svc.stop();
      await bus.close();
      await db.drop();
    },
  };
}

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  requests: Received[];
  /** Answers, in order, then `status`. */
  queue: { status: number; body?: string }[];
  status: number;
  close(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1 (valid until 2125), for the TLS verification tests. */
const TEST_TLS = {
  key: `-----BEGIN PRIVATE KEY-----
MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDLI324iH1mJoU4
MDSnkgMbJCt0sobbc3ScLHzu+yHTfS6oEdhqJMbCWryME04Hx7uQ2t3o9zsuyYzh
4NJf4ylykhL7LmP3sKu5HVZF02eSACIDL61ysY+wezZ1NkS7TfZvKbfUazlttWQE
0PjK4HpszFTEOgCpjmL6hliG2YOzuxFbDsGbqkjsF4H4R/+ySIFPCrGznpbGJBOQ
lPU6NBCHhWwU1Nrzz3F8H9IpjUBERAti2SbloTvzfmZelHnrKVm/JdrNf5w94rIm
eEq9FjtH7aOvq4mmS6ppDqDVXaJMotNzFK8JSUXDaecjThAYN5jv8Ix+KjraAZNw
FSuNXjlPAgMBAAECggEAFvCuHO3FA4ksGDlRaO8TTLhb8/TJR/UU4SIhBbf0jPah
EzfYsbvvejlW+5aehEBpDSW6U7m/xDvcnhGOkGeN4bNfU2Bcx7b63Y/Tk1UZaCJ9
tNBojQBCUtLHRptXTbOzNcCHUwS82ofWgLi8r+SDzs+QbwyB0KQUx2fujWP4/I3b
F+V+OeR88pc0t2eYWP/LDEsVoIL2sRdafMba6qixF94lt+aa2jaKd8UZSn4P6UNK
6CbDC5TMS2voDX9nGVV+JCfz+FnafwAueGQlK//a5g4i3H2lQ/2fp8pfEYdeVavN
9bN4wriFje0C2GOWdj1L+X+TJvWyHfyMD0Ybuu5goQKBgQDngoD9ExHS0wyl0uFd
bEk3qfO4U3rwVM1657+t0LOJzzJVgBzUCFlmLlTXhEuE1xQrN5SeizWp26lWlYgn
1n7C8iYb2Jex/w+BuZC1+BTxfLP7xl2A+TixOe5oewoBzfiHU/c9eVCE4qANweis
N/414OT1gk6QFZr2IAsSRCWoMQKBgQDgoKu35RlQdhWAxeMqiYMJ/xaP0jJGUMDE
ciJ1rPdIMll3kcR86YuJGL83Zkp4LCaiYEVbId8AZIu28ceAKeJU4nEGB0d+BMJ3
R8Sx7IF7Zh4gDhdJVlOQo5bVdrW6iiTubz60AMJ46mKJdsH1Oov680Ak2mo1n0NL
7cOAJ7MZfwKBgQC6zWnpSsbZ92PANd2U9XhKyv6WX/3WCIdYwcC/rqP/8cjqhpo8
WJRSR9Y7pEsPYECs8ocgOrHNYipMbBHWG1RjVuJ7G5Sjkmxfv2zN9+RmSror0Q7H
r9EX5+fANG+Jrzn3cEASQV5AK2D8WNe2huO/c70rgL6Fsnk8WfS1A3njMQKBgHP9
Y05NBZpPr2DUTi4b3cdeqhbP0lgOwMtvqC2dh/8GyL3+Tji2G/BKEAsaTd/p5HU6
QvYA8nbwdFieVobumcl9OCGFxrvi10viikXZuy6uF2Y0AIBFDFeGsY8+gi51wQZB
+V3XepQXa5RR92uatMd7riaZhfh0abqeZrIZTdkfAoGBAJfOSw3TRzuZ79giygAm
imG9ffFKMaRZ8GIyVUe07gpm/TtDqdtn5phvNJBGEpaIlcUFu4rVBmzgEirIdTws
LWbWTUzf8EK1dVMGo7VQQD1PSOj1i0guz3RdYxlioXJP5ysWGBFdoYy6WVPo5HOJ
8kYB9iTEVCYiXWiEOcSLJRfa
-----END PRIVATE KEY-----`,
  cert: `-----BEGIN CERTIFICATE-----
MIIDHDCCAgSgAwIBAgIUUc4UVQ9wy2FFz8A3IEw1sSLta6cwDQYJKoZIhvcNAQEL
BQAwFDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEyMTA0NTQwMVoYDzIxMjYx
MDI4MDQ1NDAxWjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwggEiMA0GCSqGSIb3DQEB
AQUAA4IBDwAwggEKAoIBAQDLI324iH1mJoU4MDSnkgMbJCt0sobbc3ScLHzu+yHT
fS6oEdhqJMbCWryME04Hx7uQ2t3o9zsuyYzh4NJf4ylykhL7LmP3sKu5HVZF02eS
ACIDL61ysY+wezZ1NkS7TfZvKbfUazlttWQE0PjK4HpszFTEOgCpjmL6hliG2YOz
uxFbDsGbqkjsF4H4R/+ySIFPCrGznpbGJBOQlPU6NBCHhWwU1Nrzz3F8H9IpjUBE
RAti2SbloTvzfmZelHnrKVm/JdrNf5w94rImeEq9FjtH7aOvq4mmS6ppDqDVXaJM
otNzFK8JSUXDaecjThAYN5jv8Ix+KjraAZNwFSuNXjlPAgMBAAGjZDBiMB0GA1Ud
DgQWBBQqTA+T6J164p2hd2ncyu391s1gGDAfBgNVHSMEGDAWgBQqTA+T6J164p2h
d2ncyu391s1gGDAPBgNVHRMBAf8EBTADAQH/MA8GA1UdEQQIMAaHBH8AAAEwDQYJ
KoZIhvcNAQELBQADggEBALbtFL/7kn512cV9yL2UyOw9EFc0WO2hzP1MmpXrd3lU
SSSxQUtSGGNw/U7ljadFfpDrfKUwbXWCkm9Vv074wEhxBDomogx7la5No3/Mztao
bjd0u/xivIryi1bMMr4vhNcFP8xvEYHbpVvyEXz5c/cE3/l8OG9oPRtH4zJmthJo
HSHHsLpewLZrayU/+lFpsgUNTgLOTCbmzmvacHvy93JConzb49JssGwTxlyCqqgS
cH+pbAGeF3gdiuJEodbZcuOLklchO+KMnn9KsJL2r4CYlP84Q37d8TZVMKptzaRI
g2mScobFIafb4R9HQc3Jvl2OG9rFUPBaQVWT5HXDjOU=
-----END CERTIFICATE-----`,
};

/** A receiver over HTTP, or over HTTPS with a self-signed certificate (`tls`). */
export async function startReceiver(status = 200, o: { tls?: boolean } = {}): Promise<Receiver> {
  const rec: Receiver = { url: "", requests: [], queue: [], status, close: async () => {} };
  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      rec.requests.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const next = rec.queue.shift() ?? { status: rec.status };
      if (next.status === 0) return; // never answer
      res.writeHead(next.status, { "X-Answer": String(next.status), ...(next.status === 302 ? { Location: "/elsewhere" } : {}) });
      res.end(next.body ?? `status ${next.status}`);
    });
  };
  const server = o.tls ? https.createServer(TEST_TLS, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  rec.url = `${o.tls ? "https" : "http"}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  rec.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return rec;
}

/** A push event as repo-service publishes it. */
export function pushEvent(projectId: number, o: { ref?: string; eventId?: string; kind?: "push" | "tag_push" } = {}) {
  const kind = o.kind ?? "push";
  return {
    event_id: o.eventId ?? `ev-${Math.random().toString(36).slice(2)}`,
    object_kind: kind,
    event_name: kind,
    before: "0".repeat(40),
    after: "a".repeat(40),
    ref: o.ref ?? (kind === "push" ? "refs/heads/main" : "refs/tags/v1"),
    ref_protected: false,
    checkout_sha: "a".repeat(40),
    message: null,
    user_id: 1,
    user_name: "Root",
    user_username: "root",
    user_email: null,
    user_avatar: null,
    project_id: projectId,
    project: { id: projectId, name: "P" },
    commits: [],
    total_commits_count: 0,
    push_options: {},
    repository: { name: "P" },
  };
}
