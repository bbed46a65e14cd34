import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningGateway } from "./server.ts";
import { startGatewayWithoutServices } from "./test-gateway.ts";

// The services behind this gateway do not exist: every call must fail fast with 503, never hang or 500.
let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGatewayWithoutServices();
});
afterAll(() => gateway.stop());

describe("gateway without its services", () => {
  it("answers 503 with GitLab's body when identity-service is unreachable", async () => {
    const res = await fetch(`${gateway.url}/api/v4/user`, { headers: { "PRIVATE-TOKEN": "glpat-whatever-token-value" } });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ message: "503 Service Unavailable" });
  });

  it("answers 404 with GitLab's body on unknown routes", async () => {
    const res = await fetch(`${gateway.url}/api/v4/no/such/route`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "404 Not Found" });
  });

  it("rejects malformed JSON with 400 and oversized bodies with 413", async () => {
    const bad = await fetch(`${gateway.url}/api/v4/projects`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{nope" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toHaveProperty("message");
    const big = await fetch(`${gateway.url}/api/v4/projects`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "x".repeat(5000) }),
    });
    expect(big.status).toBe(413);
  });

  it("answers /license with 404 and needs no service for it", async () => {
    const res = await fetch(`${gateway.url}/api/v4/license`);
    expect(res.status).toBe(404);
  });

  it("requires a user for /version", async () => {
    const res = await fetch(`${gateway.url}/api/v4/version`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: "401 Unauthorized" });
  });
});
