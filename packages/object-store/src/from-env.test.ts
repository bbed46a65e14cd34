import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LocalDiskObjectStore, MinioObjectStore, minioStoreFromEnv, objectStoreFromEnv } from "./index.ts";

const noMinio = { MINIO_PORT: 9000, MINIO_USE_SSL: false };
const minio = { ...noMinio, MINIO_ENDPOINT: "127.0.0.1", MINIO_ACCESS_KEY: "access", MINIO_SECRET_KEY: "secret-key" };

describe("object stores from a service's environment", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "quarry-store-env-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("is local disk under the given root without MINIO_ENDPOINT", async () => {
    const store = objectStoreFromEnv(noMinio, "uploads", root);
    expect(store).toBeInstanceOf(LocalDiskObjectStore);
    await store.ensureBucket();
    await store.put("a/b", Buffer.from("x"));
    expect((await store.stat("a/b"))?.size).toBe(1);
    expect(minioStoreFromEnv(noMinio, "uploads")).toBeUndefined();
  });

  it("is MinIO/S3 when MINIO_ENDPOINT is set, and refuses to start without both keys", () => {
    expect(objectStoreFromEnv(minio, "artifacts", root)).toBeInstanceOf(MinioObjectStore);
    expect(() => minioStoreFromEnv({ ...minio, MINIO_SECRET_KEY: undefined }, "artifacts")).toThrow(/MINIO_ACCESS_KEY and MINIO_SECRET_KEY are required/);
  });
});
