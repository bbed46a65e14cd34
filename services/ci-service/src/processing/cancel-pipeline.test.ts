import { describe, expect, it } from "vitest";
import { cancelPipeline, type CancelableJob } from "./cancel-pipeline.ts";
import { Sim } from "./simulate.test-helper.ts";

const job = (id: number, status: CancelableJob["status"], over: Partial<CancelableJob> = {}): CancelableJob => ({
  id,
  status,
  allowFailure: false,
  retried: false,
  ...over,
});

describe("cancelPipeline", () => {
  it("cancels every cancelable job and leaves finished and manual jobs alone", () => {
    const result = cancelPipeline([
      job(1, "success"),
      job(2, "running"),
      job(3, "pending"),
      job(4, "created"),
      job(5, "scheduled"),
      job(6, "waiting_for_resource"),
      job(7, "preparing"),
      job(8, "manual", { allowFailure: true }),
      job(9, "failed", { allowFailure: true }),
    ]);
    expect(result).toEqual({
      cancelable: true,
      changes: [
        { id: 2, from: "running", to: "canceled" },
        { id: 3, from: "pending", to: "canceled" },
        { id: 4, from: "created", to: "canceled" },
        { id: 5, from: "scheduled", to: "canceled" },
        { id: 6, from: "waiting_for_resource", to: "canceled" },
        { id: 7, from: "preparing", to: "canceled" },
      ],
      status: "canceled",
    });
  });

  it("a running job whose runner cancels gracefully goes through canceling", () => {
    const result = cancelPipeline([job(1, "running", { supportsCanceling: true }), job(2, "created", { supportsCanceling: true })]);
    expect(result.changes).toEqual([
      { id: 1, from: "running", to: "canceling" },
      { id: 2, from: "created", to: "canceled" },
    ]);
    expect(result.status).toBe("canceling");
  });

  it("is not cancelable when nothing can be canceled", () => {
    expect(cancelPipeline([job(1, "success"), job(2, "canceling"), job(3, "manual", { allowFailure: true })])).toEqual({
      cancelable: false,
      changes: [],
      status: "canceling",
    });
  });

  it("a canceled pipeline ends canceled once the runner finishes, whatever it reports", () => {
    new Sim(["build", "test"], { build: { stage: "build" }, test: { stage: "test" } })
      .event("run", ["build"])
      .cancel(true)
      .expect({
        pipeline: "canceling",
        stages: { build: "canceling", test: "canceled" },
        jobs: { build: "canceling", test: "canceled" },
      })
      .event("success", ["build"])
      .expect({
        pipeline: "canceled",
        stages: { build: "canceled", test: "canceled" },
        jobs: { build: "canceled", test: "canceled" },
      });
  });

  it("an optional manual job left in a canceled pipeline does not change its status", () => {
    new Sim(["build", "deploy"], { build: { stage: "build" }, deploy: { stage: "deploy", when: "manual", needs: [] } }).cancel().expect({
      pipeline: "canceled",
      stages: { build: "canceled", deploy: "skipped" },
      jobs: { build: "canceled", deploy: "manual" },
    });
  });
});
