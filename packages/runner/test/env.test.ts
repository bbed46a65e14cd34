import { describe, expect, it } from "vitest";
import { jobBaseEnvironment, loadRunnerEnv } from "../src/env.ts";

describe("runner environment", () => {
  it("has defaults for everything but the URL and token", () => {
    expect(loadRunnerEnv({})).toEqual({ QUARRY_RUNNER_BUILDS_DIR: "./data/builds", QUARRY_RUNNER_CONCURRENCY: 1, LOG_LEVEL: "info" });
  });

  it("parses the URL, token and concurrency", () => {
    expect(loadRunnerEnv({ QUARRY_RUNNER_URL: "http://127.0.0.1:8080", QUARRY_RUNNER_TOKEN: "glrt-x", QUARRY_RUNNER_CONCURRENCY: "4" })).toMatchObject({
      QUARRY_RUNNER_URL: "http://127.0.0.1:8080",
      QUARRY_RUNNER_TOKEN: "glrt-x",
      QUARRY_RUNNER_CONCURRENCY: 4,
    });
  });

  it("rejects a bad URL and a concurrency below 1", () => {
    expect(() => loadRunnerEnv({ QUARRY_RUNNER_URL: "not a url" })).toThrow(/QUARRY_RUNNER_URL/);
    expect(() => loadRunnerEnv({ QUARRY_RUNNER_CONCURRENCY: "0" })).toThrow(/QUARRY_RUNNER_CONCURRENCY/);
  });

  it("lets jobs inherit only the whitelisted variables", () => {
    expect(jobBaseEnvironment({ PATH: "/bin", HOME: "/home/x", QUARRY_RUNNER_TOKEN: "glrt-x", DATABASE_URL: "postgres://" })).toEqual({
      PATH: "/bin",
      HOME: "/home/x",
    });
  });
});
