// Shared by the hook-service tests: a running service on a fresh database, an in-process bus, a
// gRPC client, and real HTTP receivers on loopback.
import http from "node:http";
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

export async function startFixture(name: string, o: { allowLocalRequests?: boolean; settings?: Partial<HookSettings> } = {}): Promise<Fixture> {
  const db = await createTestDatabase(name);
  const bus = new InProcessBus({ log: silentLogger() });
  const svc = await startHookService({
    databaseUrl: db.url,
    grpcAddress: "127.0.0.1:0",
    identityAddress: "127.0.0.1:1",
    repoAddress: "127.0.0.1:1",
    deadlineMs: 5_000,
    encryptionKey: "k".repeat(32),
    allowLocalRequests: o.allowLocalRequests ?? true,
    settings: { ...FAST, ...o.settings },
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

export async function startReceiver(status = 200): Promise<Receiver> {
  const rec: Receiver = { url: "", requests: [], queue: [], status, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      rec.requests.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const next = rec.queue.shift() ?? { status: rec.status };
      res.writeHead(next.status, { "X-Answer": String(next.status) });
      res.end(next.body ?? `status ${next.status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  rec.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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
