// QUARRY_CI_ROLE: one build, three kinds of process. Each role is started for real (its own
// database, a local-disk store) and asked over gRPC what it serves.
import { startLoneCiService } from "../test/support.ts";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { InProcessBus } from "@quarry/bus";
import { callClientStream, callServerStream, createClient, type PromiseClient } from "@quarry/grpc";
import { silentLogger } from "@quarry/logger";
import { LocalDiskObjectStore } from "@quarry/object-store";
import { ciV1, type CiServiceDefinition } from "@quarry/proto";
import type { ArtifactDownloadResponse__Output } from "@quarry/proto/types/ci/v1/ArtifactDownloadResponse";
import type { UploadArtifactResponse__Output } from "@quarry/proto/types/ci/v1/UploadArtifactResponse";
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import { service as healthService } from "grpc-health-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedJob, seedPipeline } from "../test/rows.ts";
import { loadCiEnv } from "./env.ts";
import { parseCiRoles, type CiRole } from "./roles.ts";
import type { RunningCiService } from "./server.ts";
import { tokenDigest } from "./token-digest.ts";

let db: TestDatabase;
let root: string;
let bus: InProcessBus;
const started: { svc: RunningCiService; client: PromiseClient<CiServiceDefinition> }[] = [];

beforeAll(async () => {
  db = await createTestDatabase("ci_service_roles");
  root = await mkdtemp(path.join(tmpdir(), "quarry-ci-roles-"));
  bus = new InProcessBus({ log: silentLogger() });
});
afterAll(async () => {
  for (const { svc, client } of started) {
    client.close();
    await svc.stop();
  }
  await bus?.close();
  await db?.drop();
  await rm(root, { recursive: true, force: true });
});

/** A ci-service in `roles` on the shared database and store; workers tick every 10 ms. */
async function start(roles: CiRole[]) {
  const objectStore = new LocalDiskObjectStore({ root, bucket: "artifacts" });
  await objectStore.ensureBucket();
  const svc = await startLoneCiService({ databaseUrl: db.url, bus, objectStore, settings: { workerIntervalSeconds: 0.01 }, roles });
  const client = createClient(ciV1.CiService, svc.address, { deadlineMs: 10_000 });
  started.push({ svc, client });
  return { svc, client };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (err: { code?: number }) => err.code,
  );

async function health(address: string): Promise<string> {
  const Health = grpc.makeGenericClientConstructor(healthService, "Health");
  const client = new Health(address, grpc.credentials.createInsecure());
  try {
    return await new Promise<string>((resolve, reject) =>
      client.check!({ service: "" }, (err: Error | null, r: { status: string }) => (err ? reject(err) : resolve(r.status))),
    );
  } finally {
    client.close();
  }
}

/** Polls until `check` holds (the test's own timeout bounds the wait). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("QUARRY_CI_ROLE", () => {
  it("parses all, or a comma list of api, worker and artifacts", () => {
    expect(parseCiRoles("all")).toEqual(["api", "worker"]);
    expect(parseCiRoles("artifacts")).toEqual(["artifacts"]);
    expect(parseCiRoles(" worker , api,worker")).toEqual(["worker", "api"]);
    expect(loadCiEnv({ DATABASE_URL: "postgresql://x@h/db", QUARRY_CI_ENCRYPTION_KEY: "k".repeat(32) }).QUARRY_CI_ROLE).toEqual(["api", "worker"]);
    expect(() => loadCiEnv({ DATABASE_URL: "postgresql://x@h/db", QUARRY_CI_ENCRYPTION_KEY: "k".repeat(32), QUARRY_CI_ROLE: "api,cron" })).toThrow(
      /unknown ci-service role "cron"/,
    );
  });

  it("artifacts: refuses other RPCs with UNIMPLEMENTED and streams uploads and downloads", async () => {
    const { client } = await start(["artifacts"]);
    expect(await codeOf(client.GetJob({ projectId: 1, jobId: 1 }))).toBe(grpc.status.UNIMPLEMENTED);
    expect(await codeOf(client.RequestJob({ token: "glrt-x" } as never))).toBe(grpc.status.UNIMPLEMENTED);
    const trace = callServerStream(client, "GetJobTrace", { projectId: 1, jobId: 1 }, { deadlineMs: 5_000 });
    expect(await codeOf((async () => ((await trace.toArray()) as unknown[]).length)())).toBe(grpc.status.UNIMPLEMENTED);

    const pipeline = await seedPipeline(started[0]!.svc.deps.prisma, { status: "running" });
    const token = "glcbt-roles-test-token";
    const job = await seedJob(started[0]!.svc.deps.prisma, pipeline, { status: "running", startedAt: new Date(), tokenDigest: tokenDigest(token) });
    const body = Buffer.from("<testsuite/>".repeat(10_000));
    async function* upload() {
      yield { header: { jobId: job.id, token, artifactType: "junit", artifactFormat: "gzip", expireIn: "", filename: "junit.xml.gz" } };
      for (let i = 0; i < body.length; i += 16 * 1024) yield { data: body.subarray(i, i + 16 * 1024) };
    }
    const stored = await callClientStream<unknown, UploadArtifactResponse__Output>(client, "UploadArtifact", upload(), { deadlineMs: 10_000 });
    expect(stored.file?.fileType).toBe("junit");
    expect(Number(stored.file?.size)).toBe(body.length);

    const messages = (await callServerStream<ArtifactDownloadResponse__Output>(
      client,
      "DownloadArtifact",
      { projectId: job.projectId, jobId: job.id, fileType: "junit" },
      { deadlineMs: 10_000 },
    ).toArray()) as ArtifactDownloadResponse__Output[];
    expect(messages[0]?.header?.filename).toBe("junit.xml.gz");
    expect(Buffer.concat(messages.slice(1).map((m) => m.data)).equals(body)).toBe(true);
  });

  it("worker: runs the background workers and serves health but no CiService RPC", async () => {
    const { svc, client } = await start(["worker"]);
    expect(await health(svc.address)).toBe("SERVING");
    expect(await codeOf(client.GetJob({ projectId: 1, jobId: 1 }))).toBe(grpc.status.UNIMPLEMENTED);
    expect(await codeOf(client.VerifyRunner({ token: "glrt-x" } as never))).toBe(grpc.status.UNIMPLEMENTED);

    const { prisma } = svc.deps;
    const pipeline = await seedPipeline(prisma, { status: "running" });
    const silentSince = new Date(Date.now() - 2 * svc.deps.settings.runnerSilenceTimeoutSeconds * 1000);
    const job = await seedJob(prisma, pipeline, { status: "running", startedAt: new Date(), lastRunnerContactAt: silentSince });
    await eventually(async () => (await prisma.job.findUniqueOrThrow({ where: { id: job.id } })).status === "failed");
    expect(await prisma.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ failureReason: "stuck_or_timeout_failure" });
  });

  it("api: serves every RPC but runs no background worker", async () => {
    // Stop the worker process of the test before: only this api process could fail the job below.
    await started.find((s) => s.svc.roles.includes("worker"))?.svc.stop();
    const { svc, client } = await start(["api"]);
    const { prisma } = svc.deps;
    const pipeline = await seedPipeline(prisma, { status: "running" });
    const silentSince = new Date(Date.now() - 2 * svc.deps.settings.runnerSilenceTimeoutSeconds * 1000);
    const job = await seedJob(prisma, pipeline, { status: "running", startedAt: new Date(), lastRunnerContactAt: silentSince });
    expect(await client.GetJob({ projectId: job.projectId, jobId: job.id })).toMatchObject({ status: "running" });
    // Workers tick every 10 ms: after 300 ms an api process running them would have failed the job.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await prisma.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ status: "running" });
  });
});
