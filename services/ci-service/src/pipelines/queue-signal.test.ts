import { describe, expect, it } from "vitest";
import { JobQueueSignal } from "./queue-signal.ts";

describe("JobQueueSignal", () => {
  it("wakes every waiter on notify, and a waiter given up on by abort", async () => {
    const signal = new JobQueueSignal();
    const woken: string[] = [];
    const a = signal.wait(60_000).then(() => woken.push("a"));
    const b = signal.wait(60_000).then(() => woken.push("b"));
    signal.notify();
    await Promise.all([a, b]);
    expect(woken.sort()).toEqual(["a", "b"]);
    const abort = new AbortController();
    const c = signal.wait(60_000, abort.signal);
    abort.abort();
    await c;
  });
});
