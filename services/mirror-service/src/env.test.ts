import { EnvError } from "@quarry/env";
import { expect, it } from "vitest";
import { loadMirrorEnv } from "./env.ts";

const base = { DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/mirror" };
const key = "k".repeat(32);

it("QUARRY_MIRROR_ENCRYPTION_KEY is required and at least 32 characters", () => {
  const env = loadMirrorEnv({ ...base, QUARRY_MIRROR_ENCRYPTION_KEY: key });
  expect(env.GRPC_ADDRESS).toBe("0.0.0.0:50054");
  expect(env.QUARRY_MIRROR_ENCRYPTION_KEY).toBe(key);
  expect(() => loadMirrorEnv(base)).toThrow(EnvError);
  expect(() => loadMirrorEnv({ ...base, QUARRY_MIRROR_ENCRYPTION_KEY: "short" })).toThrow(EnvError);
});

it("QUARRY_ALLOW_LOCAL_REQUESTS is off unless set", () => {
  expect(loadMirrorEnv({ ...base, QUARRY_MIRROR_ENCRYPTION_KEY: key }).QUARRY_ALLOW_LOCAL_REQUESTS).toBe(false);
  expect(loadMirrorEnv({ ...base, QUARRY_MIRROR_ENCRYPTION_KEY: key, QUARRY_ALLOW_LOCAL_REQUESTS: "true" }).QUARRY_ALLOW_LOCAL_REQUESTS).toBe(true);
});
