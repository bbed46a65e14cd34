import { startLoneCiService } from "../../test/support.ts";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { InProcessBus } from "@quarry/bus";
import { createClient } from "@quarry/grpc";
import { silentLogger } from "@quarry/logger";
import { LocalDiskObjectStore, MinioObjectStore, type ObjectStore } from "@quarry/object-store";
import { ciV1 } from "@quarry/proto";
import { createTestDatabase, type TestDatabase } from "@quarry/testing";
import { service as healthService } from "grpc-health-check";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningCiService } from "../server.ts";

interface StoreHarness {
  name: string;
  kind: "local" | "minio";
  setup(): Promise<void>;
  /** A store for `bucket`; the bucket is not created. */
  make(bucket: string): ObjectStore;
  /** Makes the backing store unreachable, where that exists (the S3 server). */
  breakServer?(): Promise<void>;
  teardown(): Promise<void>;
}

function localHarness(): StoreHarness {
  let root = "";
  return {
    name: "LocalDiskObjectStore",
    kind: "local",
    async setup() {
      root = await mkdtemp(path.join(tmpdir(), "quarry-ci-objects-"));
    },
    make: (bucket) => new LocalDiskObjectStore({ root, bucket }),
    async teardown() {
      if (root) await rm(root, { recursive: true, force: true });
    },
  };
}

function minioHarness(): StoreHarness {
  let dir = "";
  let server: S3rver | undefined;
  let port = 0;
  return {
    name: "MinioObjectStore against s3rver",
    kind: "minio",
    async setup() {
      dir = await mkdtemp(path.join(tmpdir(), "quarry-ci-s3rver-"));
      server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: dir, resetOnClose: true });
      port = (await server.run()).port;
    },
    make: (bucket) => new MinioObjectStore({ endPoint: "127.0.0.1", port, useSSL: false, accessKey: "S3RVER", secretKey: "S3RVER", bucket }),
    async breakServer() {
      await server?.close();
      server = undefined;
    },
    async teardown() {
      await server?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

async function healthStatus(address: string, service: string): Promise<string | number> {
  const Health = grpc.makeGenericClientConstructor(healthService as grpc.ServiceDefinition, "Health");
  const h = new Health(address, grpc.credentials.createInsecure()) as unknown as {
    check(req: { service: string }, cb: (err: Error | null, res: { status: string | number }) => void): void;
    close(): void;
  };
  try {
    return await new Promise((resolve, reject) => h.check({ service }, (err, r) => (err ? reject(err) : resolve(r.status))));
  } finally {
    h.close();
  }
}

describe.each([localHarness(), minioHarness()])("GetStorageInfo with $name", (h) => {
  const log = silentLogger();
  let db: TestDatabase;
  let bus: InProcessBus;
  const running: RunningCiService[] = [];

  const start = async (store: ObjectStore) => {
    // No pipelines are created here, so the other services are never called.
    const svc = await startLoneCiService({ databaseUrl: db.url, bus, objectStore: store });
    running.push(svc);
    const client = createClient(ciV1.CiService, svc.address, { deadlineMs: 10_000 });
    return { svc, client };
  };

  beforeAll(async () => {
    await h.setup();
    db = await createTestDatabase("ci_storage");
    bus = new InProcessBus({ log });
  });

  afterAll(async () => {
    for (const svc of running) await svc.stop();
    await bus?.close();
    await db?.drop();
    await h.teardown();
  });

  it("reports kind, artifacts bucket and presign support; serves health", async () => {
    const store = h.make("artifacts");
    await store.ensureBucket();
    const { svc, client } = await start(store);
    try {
      expect(await client.GetStorageInfo({})).toEqual({
        kind: h.kind,
        artifactsBucket: "artifacts",
        canPresign: h.kind === "minio",
      });
      expect([1, "SERVING"]).toContain(await healthStatus(svc.address, "quarry.ci.v1.CiService"));
      expect([1, "SERVING"]).toContain(await healthStatus(svc.address, ""));
    } finally {
      client.close();
    }
  });

  it("answers UNAVAILABLE while the bucket does not exist", async () => {
    const store = h.make("never-created");
    const { client } = await start(store);
    try {
      const err = await client.GetStorageInfo({}).catch((e: unknown) => e);
      expect((err as grpc.ServiceError).code).toBe(grpc.status.UNAVAILABLE);
      await store.ensureBucket();
      expect((await client.GetStorageInfo({})).artifactsBucket).toBe("never-created");
    } finally {
      client.close();
    }
  });

  // Only the S3 harness has a server to take down.
  if (h.breakServer) {
    it("answers UNAVAILABLE when the S3 server is down", async () => {
      const store = h.make("artifacts");
      const { client } = await start(store);
      try {
        expect((await client.GetStorageInfo({})).kind).toBe("minio");
        await h.breakServer!();
        const err = await client.GetStorageInfo({}).catch((e: unknown) => e);
        expect((err as grpc.ServiceError).code).toBe(grpc.status.UNAVAILABLE);
      } finally {
        client.close();
      }
    });
  }
});
