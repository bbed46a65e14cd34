import * as grpc from "@grpc/grpc-js";
import { InProcessBus } from "@quarry/bus";
import { createClient, type PromiseClient } from "@quarry/grpc";
import { silentLogger } from "@quarry/logger";
import { mirrorV1, type MirrorServiceDefinition } from "@quarry/proto";
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import { service as healthService } from "grpc-health-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMirrorService, type RunningMirrorService } from "../server.ts";

describe("CountMirrors", () => {
  const log = silentLogger();
  let db: TestDatabase;
  let bus: InProcessBus;
  let svc: RunningMirrorService;
  let client: PromiseClient<MirrorServiceDefinition>;

  beforeAll(async () => {
    db = await createTestDatabase("mirror_count");
    bus = new InProcessBus({ log });
    svc = await startMirrorService({
      databaseUrl: db.url,
      grpcAddress: "127.0.0.1:0",
      repoServiceAddress: "127.0.0.1:1",
      deadlineMs: 5_000,
      encryptionKey: "k".repeat(32),
      allowLocalRequests: true,
      bus,
      log,
    });
    client = createClient(mirrorV1.MirrorService, svc.address, { deadlineMs: 10_000 });
  });

  afterAll(async () => {
    client?.close();
    await svc?.stop();
    await bus?.close();
    await db?.drop();
  });

  it("counts a project's mirrors and no one else's", async () => {
    const prisma = svc.deps.prisma;
    await prisma.remoteMirror.createMany({
      data: [
        { projectId: 1, url: "https://example.com/a.git" },
        { projectId: 1, url: "ssh://git@example.com/b.git", authMethod: "ssh_public_key", enabled: true },
        { projectId: 1, url: "https://example.com/c.git", encryptedCredentials: Buffer.from([1, 2, 3]) },
        { projectId: 2, url: "https://example.com/d.git" },
      ],
    });
    expect(await client.CountMirrors({ projectId: 1 })).toEqual({ count: 3 });
    expect(await client.CountMirrors({ projectId: 2 })).toEqual({ count: 1 });
    expect(await client.CountMirrors({ projectId: 3 })).toEqual({ count: 0 });

    await prisma.remoteMirror.deleteMany({ where: { projectId: 1, enabled: true } });
    expect(await client.CountMirrors({ projectId: 1 })).toEqual({ count: 2 });
  });

  it("stores a new mirror with GitLab's defaults", async () => {
    const m = await svc.deps.prisma.remoteMirror.create({ data: { projectId: 5, url: "https://example.com/e.git" } });
    expect(m).toMatchObject({
      enabled: false,
      onlyProtectedBranches: false,
      keepDivergentRefs: false,
      mirrorBranchRegex: null,
      authMethod: "password",
      updateStatus: "none",
      lastError: null,
      lastUpdateAt: null,
      lastUpdateStartedAt: null,
      lastSuccessfulUpdateAt: null,
      encryptedCredentials: null,
    });
    expect(await client.CountMirrors({ projectId: 5 })).toEqual({ count: 1 });
  });

  it("rejects an invalid project id with INVALID_ARGUMENT", async () => {
    for (const projectId of [0, -4, 2 ** 31]) {
      const err = await client.CountMirrors({ projectId }).catch((e: unknown) => e);
      expect((err as grpc.ServiceError).code, String(projectId)).toBe(grpc.status.INVALID_ARGUMENT);
    }
  });

  it("serves the standard health service", async () => {
    const Health = grpc.makeGenericClientConstructor(healthService as grpc.ServiceDefinition, "Health");
    const h = new Health(svc.address, grpc.credentials.createInsecure()) as unknown as {
      check(req: { service: string }, cb: (err: Error | null, res: { status: string | number }) => void): void;
      close(): void;
    };
    try {
      for (const service of ["quarry.mirror.v1.MirrorService", ""]) {
        const res = await new Promise<{ status: string | number }>((resolve, reject) => h.check({ service }, (err, r) => (err ? reject(err) : resolve(r))));
        expect([1, "SERVING"]).toContain(res.status);
      }
    } finally {
      h.close();
    }
  });
});
