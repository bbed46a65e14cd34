import { describe, expect, it } from "vitest";
import { loadIdentityEnv } from "./env.ts";

const base = { DATABASE_URL: "postgresql://u@h:5432/db", QUARRY_IDENTITY_ENCRYPTION_KEY: "k".repeat(32) };

describe("identity-service environment", () => {
  it("requires an encryption key of 32+ characters for the two-factor secrets", () => {
    expect(() => loadIdentityEnv({ DATABASE_URL: base.DATABASE_URL })).toThrow(/QUARRY_IDENTITY_ENCRYPTION_KEY/);
    expect(() => loadIdentityEnv({ ...base, QUARRY_IDENTITY_ENCRYPTION_KEY: "short" })).toThrow(/QUARRY_IDENTITY_ENCRYPTION_KEY/);
    expect(loadIdentityEnv(base).QUARRY_IDENTITY_ENCRYPTION_KEY).toBe("k".repeat(32));
  });

  it("reads QUARRY_DNS_SERVERS as a comma-separated list, empty by default (the system's resolvers)", () => {
    expect(loadIdentityEnv(base).QUARRY_DNS_SERVERS).toEqual([]);
    expect(loadIdentityEnv({ ...base, QUARRY_DNS_SERVERS: " 10.0.0.2 , 127.0.0.1:5353,," }).QUARRY_DNS_SERVERS).toEqual(["10.0.0.2", "127.0.0.1:5353"]);
  });
});
