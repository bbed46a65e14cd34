import { describe, expect, it } from "vitest";
import { silentLogger } from "@quarry/logger";
import { startWorkers } from "./periodic.ts";

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe("startWorkers", () => {
  it("runs every worker again and again, a failed run not ending its loop", async () => {
    const thirdRun = deferred();
    let runs = 0;
    let otherRan = false;
    const workers = startWorkers(
      [
        {
          name: "flaky",
          async runOnce() {
            runs++;
            if (runs === 1) throw new Error("first run fails");
            if (runs === 3) thirdRun.resolve();
          },
        },
        {
          name: "other",
          runOnce: async () => {
            otherRan = true;
          },
        },
      ],
      1,
      silentLogger(),
    );
    await thirdRun.promise;
    await workers.stop();
    expect(otherRan).toBe(true);
  });

  it("stop waits for the run in flight, then runs nothing more", async () => {
    const started = deferred();
    const finish = deferred();
    let runs = 0;
    let finished = false;
    const workers = startWorkers(
      [
        {
          name: "slow",
          async runOnce() {
            runs++;
            started.resolve();
            await finish.promise;
            finished = true;
          },
        },
      ],
      1,
      silentLogger(),
    );
    await started.promise;
    const stopping = workers.stop().then(() => finished);
    finish.resolve();
    expect(await stopping).toBe(true);
    // The loop would have scheduled the next run one millisecond after the first ended.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs).toBe(1);
  });
});
