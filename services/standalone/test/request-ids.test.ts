// Request ids end to end: the id a client sends (or the gateway makes) is answered, and reaches
// the log lines of the services that serve the request, also of a service called by another one.
import { memoryLogger } from "@quarry/logger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT_TOKEN, startTestStack, type TestStack } from "./helpers.ts";

// The stack's one logger, at debug, keeps every service's lines.
const recorded = memoryLogger("quarry", "debug");
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack(undefined, { log: recorded.log });
}, 120_000);
afterAll(async () => {
  await stack?.destroy();
});

const createProject = (name: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.url}/api/v4/projects`, {
    method: "POST",
    headers: { "PRIVATE-TOKEN": ROOT_TOKEN, "Content-Type": "application/json", ...headers },
    body: JSON.stringify({ name }),
  });

/** The log lines of `service` carrying `requestId`. */
const linesOf = (service: string, requestId: string) => recorded.records.filter((r) => r.service === service && r.request_id === requestId);

describe("request ids", () => {
  it("go from X-Request-Id through the gateway into the log lines of every service on the way", async () => {
    const res = await createProject("traced", { "X-Request-Id": "abc-trace-0001" });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-request-id")).toBe("abc-trace-0001");

    // The gateway calls identity-service, which creates the repository through repo-service
    // without naming the id: it goes on with the call (packages/grpc request-context.ts).
    expect(linesOf("identity-service", "abc-trace-0001")).toEqual(
      expect.arrayContaining([expect.objectContaining({ rpc: "quarry.identity.v1.IdentityService/CreateProject" })]),
    );
    expect(linesOf("repo-service", "abc-trace-0001").map((r) => r.rpc)).toContain("quarry.repo.v1.RepoService/CreateRepository");
    expect(linesOf("gateway", "abc-trace-0001")).toEqual([expect.objectContaining({ msg: "request", route: "/api/v4/projects", status: 201 })]);
  });

  it("are made by the gateway when the client sends none, and go on the same way", async () => {
    const res = await createProject("traced-too");
    const id = res.headers.get("x-request-id") ?? "";
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(linesOf("identity-service", id).length).toBeGreaterThan(0);
    expect(linesOf("repo-service", id).map((r) => r.rpc)).toContain("quarry.repo.v1.RepoService/CreateRepository");
  });
});
