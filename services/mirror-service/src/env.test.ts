import { EnvError } from "@quarry/env";
import { expect, it } from "vitest";
import { loadMirrorEnv } from "./env.ts";

const base = { DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/mirror" };

it("QUARRY_MIRROR_ENCRYPTION_KEY is optional, but at least 32 characters when set", () => {
  const env = loadMirrorEnv(base);
  expect(env.GRPC_ADDRESS).toBe("0.0.0.0:50054");
  expect(env.QUARRY_MIRROR_ENCRYPTION_KEY).toBeUndefined();
  expect(loadMirrorEnv({ ...base, QUARRY_MIRROR_ENCRYPTION_KEY: "" }).QUARRY_MIRROR_ENCRYPTION_KEY).toBeUndefined();
  const key = "k".repeat(32);
  expect(loadMirrorEnv({ ...base, QUARRY_MIRROR_ENCRYPTION_KEY: key }).QUARRY_MIRROR_ENCRYPTION_KEY).toBe(key);
  expect(() => loadMirrorEnv({ ...base, QUARRY_MIRROR_ENCRYPTION_KEY: "short" })).toThrow(EnvError);
});
