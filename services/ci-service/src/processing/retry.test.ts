import { describe, expect, it } from "vitest";
import type { ProcessableJob } from "./processable.ts";
import { applyRetryPlan, isPipelineRetryable, playJob, resetSkippedJobs, retryJob, retryPipeline } from "./retry.ts";
import { Sim } from "./simulate.test-helper.ts";

const job = (over: Partial<ProcessableJob> & Pick<ProcessableJob, "id" | "name">): ProcessableJob => ({
  stageIdx: 0,
  status: "created",
  when: "on_success",
  allowFailure: false,
  needs: null,
  retried: false,
  ...over,
});

describe("resetSkippedJobs (Ci::ResetSkippedJobsService)", () => {
  const jobs = [
    job({ id: 1, name: "build", status: "failed" }),
    job({ id: 2, name: "lint", status: "skipped" }), // same stage, does not need build
    job({ id: 3, name: "unit", status: "skipped", needs: ["build"] }), // same stage, needs build
    job({ id: 4, name: "e2e", status: "skipped", needs: ["unit"] }), // same stage, needs build transitively
    job({ id: 5, name: "deploy", stageIdx: 1, status: "skipped", needs: [] }), // later stage
    job({ id: 6, name: "report", stageIdx: 1, status: "success" }),
    job({ id: 7, name: "old", stageIdx: 1, status: "skipped", retried: true }),
  ];

  it("resets skipped needs-descendants and every skipped job of later stages", () => {
    expect(resetSkippedJobs(jobs, [1])).toEqual([
      { id: 3, from: "skipped", to: "created" },
      { id: 4, from: "skipped", to: "created" },
      { id: 5, from: "skipped", to: "created" },
    ]);
  });

  it("does nothing for unknown or retried jobs", () => {
    expect(resetSkippedJobs(jobs, [99])).toEqual([]);
    expect(resetSkippedJobs(jobs, [7])).toEqual([]);
  });
});

describe("retryJob", () => {
  it("clones a finished job and resets the skipped jobs after it", () => {
    const jobs = [job({ id: 1, name: "build", status: "failed" }), job({ id: 2, name: "test", stageIdx: 1, status: "skipped" })];
    expect(retryJob(jobs, 1)).toEqual({
      clones: [{ retryOf: 1, enqueueImmediately: false }],
      changes: [{ id: 2, from: "skipped", to: "created" }],
    });
  });

  it("refuses jobs that are not retryable", () => {
    const jobs = [job({ id: 1, name: "build", status: "running" }), job({ id: 2, name: "old", status: "failed", retried: true })];
    expect(retryJob(jobs, 1)).toBeNull();
    expect(retryJob(jobs, 2)).toBeNull();
    expect(retryJob(jobs, 3)).toBeNull();
  });

  it("enqueues a retried manual job at once", () => {
    const jobs = [job({ id: 1, name: "deploy", when: "manual", allowFailure: true, status: "success" })];
    expect(retryJob(jobs, 1)?.clones).toEqual([{ retryOf: 1, enqueueImmediately: true }]);
  });

  it("dag_same_stage_with_fail_and_retry_1: a retried failure lets its dependents run again", () => {
    new Sim(["test"], {
      build: { stage: "test" },
      test: { stage: "test", needs: ["build"] },
      deploy: { stage: "test", needs: ["test"] },
    })
      .finish(["build"], "drop")
      .expect({
        pipeline: "failed",
        stages: { test: "failed" },
        jobs: { build: "failed", test: "skipped", deploy: "skipped" },
      })
      .retry("build")
      .expect({
        pipeline: "running",
        stages: { test: "pending" },
        jobs: { build: "pending", test: "created", deploy: "created" },
      })
      .finish(["build"], "success")
      .expect({
        pipeline: "running",
        stages: { test: "running" },
        jobs: { build: "success", test: "pending", deploy: "created" },
      });
  });

  it("stage_one_test_succeeds_one_manual_test_fails_and_retry_manual_build: a retried manual job runs at once", () => {
    const sim = new Sim(["test"], { test1: { stage: "test" }, test2: { stage: "test", when: "manual" } })
      .finish(["test1"], "success")
      .play("test2")
      .finish(["test2"], "drop")
      .retry("test2")
      .expect({ pipeline: "running", stages: { test: "running" }, jobs: { test1: "success", test2: "pending" } });
    // The old job is kept, marked retried; the clone is a new job.
    expect(sim.jobs.filter((j) => j.name === "test2").map((j) => [j.status, j.retried])).toEqual([
      ["failed", true],
      ["pending", false],
    ]);
  });
});

describe("playJob", () => {
  it("enqueues a manual job and resets its skipped dependents", () => {
    const jobs = [
      job({ id: 1, name: "approve", when: "manual", allowFailure: true, status: "manual" }),
      job({ id: 2, name: "deploy", stageIdx: 1, status: "skipped", needs: ["approve"] }),
    ];
    expect(playJob(jobs, 1)).toEqual({
      clones: [],
      changes: [
        { id: 1, from: "manual", to: "pending" },
        { id: 2, from: "skipped", to: "created" },
      ],
    });
  });

  it("refuses jobs that are not manual", () => {
    const jobs = [job({ id: 1, name: "build", status: "success" }), job({ id: 2, name: "deploy", when: "manual", status: "running" })];
    expect(playJob(jobs, 1)).toBeNull();
    expect(playJob(jobs, 2)).toBeNull();
  });
});

describe("retryPipeline (Ci::RetryPipelineService)", () => {
  it("clones failed and canceled jobs, and resets skipped ones", () => {
    const jobs = [
      job({ id: 1, name: "a", status: "success" }),
      job({ id: 2, name: "b", status: "failed" }),
      job({ id: 3, name: "c", status: "canceled" }),
      job({ id: 4, name: "d", stageIdx: 1, status: "skipped" }),
      job({ id: 5, name: "e", stageIdx: 1, status: "manual", when: "manual" }),
      job({ id: 6, name: "b", status: "failed", retried: true }),
    ];
    const plan = retryPipeline(jobs);
    expect(plan).toEqual({
      clones: [
        { retryOf: 2, enqueueImmediately: false },
        { retryOf: 3, enqueueImmediately: false },
      ],
      changes: [{ id: 4, from: "skipped", to: "created" }],
    });
    expect(isPipelineRetryable(jobs)).toBe(true);
    expect(isPipelineRetryable([jobs[0]!, jobs[4]!])).toBe(false);

    let next = 10;
    const after = applyRetryPlan(jobs, plan, () => next++);
    expect(after.map((j) => [j.id, j.name, j.status, j.retried])).toEqual([
      [1, "a", "success", false],
      [2, "b", "failed", true],
      [3, "c", "canceled", true],
      [4, "d", "created", false],
      [5, "e", "manual", false],
      [6, "b", "failed", true],
      [10, "b", "created", false],
      [11, "c", "created", false],
    ]);
  });

  it("a failed stage is run again and later stages follow", () => {
    new Sim(["build", "test", "deploy"], {
      build: { stage: "build" },
      test: { stage: "test" },
      deploy: { stage: "deploy" },
    })
      .finish(["build"], "success")
      .finish(["test"], "drop")
      .expect({
        pipeline: "failed",
        stages: { build: "success", test: "failed", deploy: "skipped" },
        jobs: { build: "success", test: "failed", deploy: "skipped" },
      })
      .retryPipeline()
      .expect({
        pipeline: "running",
        stages: { build: "success", test: "pending", deploy: "skipped" },
        jobs: { build: "success", test: "pending", deploy: "created" },
      })
      .finish(["test"], "success")
      .finish(["deploy"], "success")
      .expect({
        pipeline: "success",
        stages: { build: "success", test: "success", deploy: "success" },
        jobs: { build: "success", test: "success", deploy: "success" },
      });
  });

  it("stage_one_test_succeeds_one_manual_test_fails_and_retry_pipeline: a retried manual job waits for a play again", () => {
    new Sim(["test"], { test1: { stage: "test" }, test2: { stage: "test", when: "manual" } })
      .expect({ pipeline: "pending", stages: { test: "pending" }, jobs: { test1: "pending", test2: "manual" } })
      .finish(["test1"], "success")
      .expect({ pipeline: "success", stages: { test: "success" }, jobs: { test1: "success", test2: "manual" } })
      .play("test2")
      .expect({ pipeline: "running", stages: { test: "running" }, jobs: { test1: "success", test2: "pending" } })
      .finish(["test2"], "drop")
      .expect({ pipeline: "success", stages: { test: "success" }, jobs: { test1: "success", test2: "failed" } })
      .retryPipeline()
      .expect({ pipeline: "success", stages: { test: "success" }, jobs: { test1: "success", test2: "manual" } });
  });
});
