import path from "node:path";
import { LocalDiskObjectStore, MinioObjectStore, type ObjectStore } from "@quarry/object-store";
import { describe, expect, it } from "vitest";
import { loadCiEnv } from "./env.ts";
import { objectStoreFromEnv, storageKind } from "./storage.ts";

const base = { DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/ci", QUARRY_CI_ENCRYPTION_KEY: "k".repeat(32) };

describe("objectStoreFromEnv", () => {
  it("uses the local disk under QUARRY_OBJECT_STORE_DIR without MINIO_ENDPOINT", () => {
    const store = objectStoreFromEnv(loadCiEnv({ ...base, QUARRY_OBJECT_STORE_DIR: "/tmp/quarry-objects", MINIO_ENDPOINT: "" }));
    expect(store).toBeInstanceOf(LocalDiskObjectStore);
    expect(store.bucket).toBe("artifacts");
    expect(storageKind(store)).toBe("local");
  });

  it("defaults the local root to ./data/objects", () => {
    const env = loadCiEnv(base);
    expect(path.resolve(env.QUARRY_OBJECT_STORE_DIR)).toBe(path.resolve("data/objects"));
    expect(env.MINIO_PORT).toBe(9000);
    expect(env.MINIO_USE_SSL).toBe(false);
  });

  it("uses MinIO when MINIO_ENDPOINT is set", () => {
    const env = loadCiEnv({
      ...base,
      MINIO_ENDPOINT: "minio",
      MINIO_PORT: "9002",
      MINIO_ACCESS_KEY: "ak",
      MINIO_SECRET_KEY: "sk",
      QUARRY_ARTIFACTS_BUCKET: "ci-artifacts",
    });
    const store = objectStoreFromEnv(env);
    expect(store).toBeInstanceOf(MinioObjectStore);
    expect(store.bucket).toBe("ci-artifacts");
    expect(storageKind(store)).toBe("minio");
  });

  it("refuses MinIO without credentials", () => {
    expect(() => objectStoreFromEnv(loadCiEnv({ ...base, MINIO_ENDPOINT: "minio" }))).toThrow(/MINIO_ACCESS_KEY/);
  });
});

it("storageKind rejects other ObjectStore implementations", () => {
  expect(() => storageKind({ bucket: "x" } as unknown as ObjectStore)).toThrow(/unsupported object store/);
});
