import { describe, expect, it } from "vitest";
import { waitFor } from "../src/wait.ts";

describe("waitFor", () => {
  it("resolves with the first truthy value, retrying falsy results and errors", async () => {
    let calls = 0;
    const value = await waitFor(
      async () => {
        calls++;
        if (calls === 1) throw new Error("not ready");
        return calls >= 4 ? { calls } : null;
      },
      { intervalMs: 1 },
    );
    expect(value).toEqual({ calls: 4 });
  });

  it("times out with the message and the last error as cause", async () => {
    const boom = new Error("still failing");
    const started = Date.now();
    const err = await waitFor(
      () => {
        throw boom;
      },
      { timeoutMs: 120, intervalMs: 10, message: "service to come up" },
    ).catch((e: unknown) => e as Error);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    expect(err.message).toBe("waitFor timed out after 120ms: service to come up; last error: still failing");
    expect(err.cause).toBe(boom);
  });

  it("times out reporting the last falsy value", async () => {
    await expect(waitFor(() => 0, { timeoutMs: 50, message: "count" })).rejects.toThrow("waitFor timed out after 50ms: count; last value: 0");
    await expect(waitFor(() => undefined, { timeoutMs: 30 })).rejects.toThrow(/return a truthy value/);
  });
});
