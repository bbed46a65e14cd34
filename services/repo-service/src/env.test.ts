import { EnvError } from "@quarry/env";
import { expect, it } from "vitest";
import { loadRepoEnv } from "./env.ts";

it("applies the defaults", () => {
  expect(loadRepoEnv({ DATABASE_URL: "postgresql://u@h:5432/repo" })).toEqual({
    DATABASE_URL: "postgresql://u@h:5432/repo",
    GRPC_ADDRESS: "0.0.0.0:50052",
    QUARRY_STORAGE_ROOT: "./data/repositories",
    GIT_CATFILE_POOL_SIZE: 64,
    LOG_LEVEL: "info",
    QUARRY_SSH_PORT: 0,
    QUARRY_SSH_LISTEN: "0.0.0.0",
    QUARRY_SSH_HOST_KEY: "./data/ssh_host_ed25519_key",
    IDENTITY_SERVICE_ADDRESS: "127.0.0.1:50051",
    QUARRY_EXTERNAL_URL: "http://localhost:8080",
  });
  expect(loadRepoEnv({ DATABASE_URL: "postgresql://u@h/db", GIT_CATFILE_POOL_SIZE: "0" }).GIT_CATFILE_POOL_SIZE).toBe(0);
});

it("requires DATABASE_URL and a host:port address", () => {
  expect(() => loadRepoEnv({})).toThrow(EnvError);
  expect(() => loadRepoEnv({ DATABASE_URL: "postgresql://u@h/db", GRPC_ADDRESS: "nope" })).toThrow(/GRPC_ADDRESS/);
});
