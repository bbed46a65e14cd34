import { describe, expect, it } from "vitest";
import { nextStatus, processPipeline, validPreviousStatuses } from "./process-pipeline.ts";
import type { ProcessableJob } from "./processable.ts";
import { Sim } from "./simulate.test-helper.ts";

const STAGES = ["build", "test", "deploy"];

const job = (over: Partial<ProcessableJob> & Pick<ProcessableJob, "id" | "name">): ProcessableJob => ({
  stageIdx: 0,
  status: "created",
  when: "on_success",
  allowFailure: false,
  needs: null,
  retried: false,
  ...over,
});

describe("validPreviousStatuses / nextStatus (Ci::ProcessBuildService)", () => {
  it.each([
    ["on_success", false, ["success", "skipped"]],
    ["on_success", true, ["success"]],
    ["manual", false, ["success", "skipped"]],
    ["delayed", true, ["success"]],
    ["on_failure", false, ["failed"]],
    ["on_failure", true, ["failed"]],
    ["always", false, ["success", "failed", "skipped"]],
    ["never", false, []],
  ] as const)("when %s (dag %s) runs after %j", (when, dag, statuses) => {
    expect(validPreviousStatuses(when, dag)).toEqual(statuses);
  });

  it("turns a job that may run into pending, manual or scheduled, else skipped", () => {
    const j = job({ id: 1, name: "a" });
    expect(nextStatus(j, "success")).toBe("pending");
    expect(nextStatus({ ...j, when: "manual" }, "success")).toBe("manual");
    expect(nextStatus({ ...j, when: "delayed" }, "success")).toBe("scheduled");
    expect(nextStatus({ ...j, when: "manual", enqueueImmediately: true }, "success")).toBe("pending");
    expect(nextStatus(j, "failed")).toBe("skipped");
    expect(nextStatus(j, "canceled")).toBe("skipped");
    expect(nextStatus({ ...j, when: "always" }, "canceled")).toBe("skipped");
    expect(nextStatus({ ...j, when: "never" }, "success")).toBe("skipped");
  });
});

describe("processPipeline", () => {
  it("reports the changes, stage statuses and pipeline status of one pass", () => {
    const result = processPipeline([
      job({ id: 1, name: "build" }),
      job({ id: 2, name: "test", stageIdx: 1 }),
      job({ id: 3, name: "manual", stageIdx: 1, when: "manual", allowFailure: true, needs: [] }),
    ]);
    expect(result).toEqual({
      changes: [
        { id: 1, from: "created", to: "pending" },
        { id: 3, from: "created", to: "manual" },
      ],
      stages: [
        { stageIdx: 0, status: "pending", warnings: false },
        { stageIdx: 1, status: "created", warnings: false },
      ],
      status: "pending",
      warnings: false,
    });
  });

  it("leaves jobs alone that are not created, and ignores retried jobs", () => {
    const result = processPipeline([
      job({ id: 1, name: "build", status: "failed", retried: true }),
      job({ id: 4, name: "build", status: "success" }),
      job({ id: 2, name: "test", stageIdx: 1, status: "running" }),
      job({ id: 3, name: "deploy", stageIdx: 2 }),
    ]);
    expect(result.changes).toEqual([]);
    expect(result.status).toBe("running");
  });

  it("processes a stage's jobs in needs order, so a same-stage need skipped in this pass skips its dependents", () => {
    // `test` comes first by id but needs `lint`, which is skipped (on_failure after success).
    const result = processPipeline([
      job({ id: 1, name: "build", status: "success" }),
      job({ id: 2, name: "test", stageIdx: 1, needs: ["lint"] }),
      job({ id: 3, name: "lint", stageIdx: 1, when: "on_failure" }),
    ]);
    expect(result.changes).toEqual([
      { id: 3, from: "created", to: "skipped" },
      { id: 2, from: "created", to: "skipped" },
    ]);
  });

  it("treats needs naming no current job as satisfied (optional needs)", () => {
    const result = processPipeline([job({ id: 1, name: "build", status: "running" }), job({ id: 2, name: "test", stageIdx: 1, needs: ["absent"] })]);
    expect(result.changes).toEqual([{ id: 2, from: "created", to: "pending" }]);
  });

  it("keeps the stored statuses when the jobs only say `created`", () => {
    // A needs cycle (rejected by config validation) leaves both jobs waiting.
    const jobs = [
      job({ id: 1, name: "build", status: "success" }),
      job({ id: 2, name: "a", stageIdx: 1, needs: ["b"] }),
      job({ id: 3, name: "b", stageIdx: 1, needs: ["a"] }),
    ];
    const result = processPipeline(jobs, { pipeline: "running", stages: { 1: "running" } });
    expect(result.changes).toEqual([]);
    expect(result.stages[1]).toEqual({ stageIdx: 1, status: "running", warnings: false });
    expect(result.status).toBe("running");
  });
});

// Scenarios after GitLab's spec/services/ci/pipeline_processing/test_cases/*.yml, with the
// statuses current GitLab reaches.
describe("stage-based pipelines", () => {
  it("stage_build_fails: later stages are skipped", () => {
    new Sim(STAGES, { build: { stage: "build" }, test: { stage: "test" }, deploy: { stage: "deploy" } })
      .expect({
        pipeline: "pending",
        stages: { build: "pending", test: "created", deploy: "created" },
        jobs: { build: "pending", test: "created", deploy: "created" },
      })
      .finish(["build"], "drop")
      .expect({
        pipeline: "failed",
        stages: { build: "failed", test: "skipped", deploy: "skipped" },
        jobs: { build: "failed", test: "skipped", deploy: "skipped" },
      });
  });

  it("stage_build_fails_test_allow_failure: allow_failure on a later job does not make it run", () => {
    new Sim(STAGES, {
      build: { stage: "build" },
      test: { stage: "test", allowFailure: true },
      deploy: { stage: "deploy" },
    })
      .finish(["build"], "drop")
      .expect({
        pipeline: "failed",
        stages: { build: "failed", test: "skipped", deploy: "skipped" },
        jobs: { build: "failed", test: "skipped", deploy: "skipped" },
      });
  });

  it("a `when: always` job runs after a failure; its pipeline still fails", () => {
    const sim = new Sim(STAGES, {
      build: { stage: "build" },
      test: { stage: "test" },
      cleanup: { stage: "deploy", when: "always" },
    })
      .finish(["build"], "drop")
      .expect({
        pipeline: "running",
        stages: { build: "failed", test: "skipped", deploy: "pending" },
        jobs: { build: "failed", test: "skipped", cleanup: "pending" },
      });
    sim.finish(["cleanup"], "success").expect({
      pipeline: "failed",
      stages: { build: "failed", test: "skipped", deploy: "success" },
      jobs: { build: "failed", test: "skipped", cleanup: "success" },
    });
  });

  it("an allowed failure counts as success: later stages run and the pipeline passes with warnings", () => {
    const sim = new Sim(STAGES, {
      build: { stage: "build", allowFailure: true },
      test: { stage: "test" },
    })
      .finish(["build"], "drop")
      .expect({
        pipeline: "running",
        stages: { build: "success", test: "pending" },
        jobs: { build: "failed", test: "pending" },
      });
    expect(sim.warnings).toBe(true);
    sim.finish(["test"], "success").expect({
      pipeline: "success",
      stages: { build: "success", test: "success" },
      jobs: { build: "failed", test: "success" },
    });
    expect(sim.warnings).toBe(true);
  });

  it("stage_build_fails_with_allow_failure_test_on_failure: on_failure jobs do not run after an allowed failure", () => {
    new Sim(STAGES, {
      build: { stage: "build", allowFailure: true },
      test: { stage: "test", when: "on_failure" },
      deploy: { stage: "deploy" },
    })
      .finish(["build"], "drop")
      .expect({
        pipeline: "running",
        stages: { build: "success", test: "skipped", deploy: "pending" },
        jobs: { build: "failed", test: "skipped", deploy: "pending" },
      })
      .finish(["deploy"], "success")
      .expect({
        pipeline: "success",
        stages: { build: "success", test: "skipped", deploy: "success" },
        jobs: { build: "failed", test: "skipped", deploy: "success" },
      });
  });

  it("stage_test_on_failure_with_failure: on_failure jobs run after a failure, on_success ones are skipped", () => {
    new Sim(STAGES, {
      build: { stage: "build" },
      rollback: { stage: "test", when: "on_failure" },
      deploy: { stage: "deploy" },
    })
      .finish(["build"], "drop")
      // deploy waits: the on_failure job before it has not finished.
      .expect({
        pipeline: "running",
        stages: { build: "failed", test: "pending", deploy: "created" },
        jobs: { build: "failed", rollback: "pending", deploy: "created" },
      })
      .finish(["rollback"], "success")
      .expect({
        pipeline: "failed",
        stages: { build: "failed", test: "success", deploy: "skipped" },
        jobs: { build: "failed", rollback: "success", deploy: "skipped" },
      });
  });

  it("stage_test_on_failure_with_success: on_failure jobs are skipped when all went well", () => {
    new Sim(STAGES, { build: { stage: "build" }, rollback: { stage: "test", when: "on_failure" } }).finish(["build"], "success").expect({
      pipeline: "success",
      stages: { build: "success", test: "skipped" },
      jobs: { build: "success", rollback: "skipped" },
    });
  });

  it("stage_build_cancels_test1_and_test2_have_when: after a canceled job nothing runs and the pipeline is canceled", () => {
    new Sim(STAGES, {
      build: { stage: "build" },
      test1: { stage: "test", when: "on_success" },
      test2: { stage: "test", when: "on_failure" },
      deploy: { stage: "deploy" },
    })
      .event("cancel", ["build"])
      .expect({
        pipeline: "canceled",
        stages: { build: "canceled", test: "skipped", deploy: "skipped" },
        jobs: { build: "canceled", test1: "skipped", test2: "skipped", deploy: "skipped" },
      });
  });

  it("a delayed job is scheduled once its stage may start", () => {
    new Sim(STAGES, { build: { stage: "build" }, deploy: { stage: "deploy", when: "delayed" } })
      .finish(["build"], "success")
      .expect({
        pipeline: "scheduled",
        stages: { build: "success", deploy: "scheduled" },
        jobs: { build: "success", deploy: "scheduled" },
      })
      .event("enqueue_scheduled", ["deploy"])
      .expect({
        pipeline: "running",
        stages: { build: "success", deploy: "pending" },
        jobs: { build: "success", deploy: "pending" },
      });
  });
});

describe("manual jobs", () => {
  it("stage_test_manual_allow_failure_true: a manual job is optional; the pipeline passes without it", () => {
    new Sim(["test", "deploy"], { test: { stage: "test", when: "manual" }, deploy: { stage: "deploy" } })
      .expect({
        pipeline: "pending",
        stages: { test: "skipped", deploy: "pending" },
        jobs: { test: "manual", deploy: "pending" },
      })
      .finish(["deploy"], "success")
      .expect({
        pipeline: "success",
        stages: { test: "skipped", deploy: "success" },
        jobs: { test: "manual", deploy: "success" },
      })
      .play("test")
      .expect({
        pipeline: "running",
        stages: { test: "pending", deploy: "success" },
        jobs: { test: "pending", deploy: "success" },
      })
      .finish(["test"], "drop")
      .expect({
        pipeline: "success",
        stages: { test: "success", deploy: "success" },
        jobs: { test: "failed", deploy: "success" },
      });
  });

  it("stage_test_manual_allow_failure_false: a blocking manual job holds the pipeline in `manual`", () => {
    new Sim(["test", "deploy"], {
      test: { stage: "test", when: "manual", allowFailure: false },
      deploy: { stage: "deploy" },
    })
      .expect({
        pipeline: "manual",
        stages: { test: "manual", deploy: "created" },
        jobs: { test: "manual", deploy: "created" },
      })
      .play("test")
      .expect({
        pipeline: "pending",
        stages: { test: "pending", deploy: "created" },
        jobs: { test: "pending", deploy: "created" },
      })
      .event("run", ["test"])
      .expect({
        pipeline: "running",
        stages: { test: "running", deploy: "created" },
        jobs: { test: "running", deploy: "created" },
      })
      .event("success", ["test"])
      .expect({
        pipeline: "running",
        stages: { test: "success", deploy: "pending" },
        jobs: { test: "success", deploy: "pending" },
      })
      .finish(["deploy"], "success")
      .expect({
        pipeline: "success",
        stages: { test: "success", deploy: "success" },
        jobs: { test: "success", deploy: "success" },
      });
  });

  it("dag_test_manual_allow_failure_true: a job that needs an unplayed optional manual job is skipped, and reset when it is played", () => {
    new Sim(["test", "deploy"], {
      test: { stage: "test", when: "manual" },
      deploy: { stage: "deploy", needs: ["test"] },
    })
      .expect({
        pipeline: "skipped",
        stages: { test: "skipped", deploy: "skipped" },
        jobs: { test: "manual", deploy: "skipped" },
      })
      .play("test")
      // A stage whose jobs are all `created` keeps its stored status, as in GitLab.
      .expect({
        pipeline: "pending",
        stages: { test: "pending", deploy: "skipped" },
        jobs: { test: "pending", deploy: "created" },
      })
      .finish(["test"], "success")
      .expect({
        pipeline: "running",
        stages: { test: "success", deploy: "pending" },
        jobs: { test: "success", deploy: "pending" },
      });
  });

  it("dag_test_manual_allow_failure_false: a job that needs a blocking manual job waits for it", () => {
    new Sim(["test", "deploy"], {
      test: { stage: "test", when: "manual", allowFailure: false },
      deploy: { stage: "deploy", needs: ["test"] },
    })
      .expect({
        pipeline: "manual",
        stages: { test: "manual", deploy: "created" },
        jobs: { test: "manual", deploy: "created" },
      })
      .play("test")
      .finish(["test"], "success")
      .expect({
        pipeline: "running",
        stages: { test: "success", deploy: "pending" },
        jobs: { test: "success", deploy: "pending" },
      });
  });

  it("a finished manual job is played again by retrying it, enqueued at once", () => {
    new Sim(["test"], { test1: { stage: "test" }, test2: { stage: "test", when: "manual" } })
      .finish(["test1"], "success")
      .play("test2")
      .finish(["test2"], "drop")
      .expect({ pipeline: "success", stages: { test: "success" }, jobs: { test1: "success", test2: "failed" } })
      .play("test2")
      .expect({ pipeline: "running", stages: { test: "running" }, jobs: { test1: "success", test2: "pending" } });
  });
});

describe("DAG pipelines", () => {
  it("dag_same_stages: needs order jobs inside one stage", () => {
    new Sim(["test"], {
      build: { stage: "test" },
      test: { stage: "test", needs: ["build"] },
      deploy: { stage: "test", needs: ["test"] },
    })
      .expect({
        pipeline: "pending",
        stages: { test: "pending" },
        jobs: { build: "pending", test: "created", deploy: "created" },
      })
      .finish(["build"], "success")
      .expect({
        pipeline: "running",
        stages: { test: "running" },
        jobs: { build: "success", test: "pending", deploy: "created" },
      })
      .finish(["test"], "success")
      .expect({
        pipeline: "running",
        stages: { test: "running" },
        jobs: { build: "success", test: "success", deploy: "pending" },
      });
  });

  it("a DAG job starts as soon as its needs succeed, before the previous stage finishes", () => {
    new Sim(STAGES, {
      build_a: { stage: "build" },
      build_b: { stage: "build" },
      test_a: { stage: "test", needs: ["build_a"] },
      test_all: { stage: "test" },
    })
      .finish(["build_a"], "success")
      .expect({
        pipeline: "running",
        stages: { build: "running", test: "pending" },
        jobs: { build_a: "success", build_b: "pending", test_a: "pending", test_all: "created" },
      });
  });

  it("dag_deploy_needs_empty: `needs: []` starts at once", () => {
    new Sim(STAGES, {
      build: { stage: "build" },
      test: { stage: "test" },
      deploy: { stage: "deploy", needs: [] },
    }).expect({
      pipeline: "pending",
      stages: { build: "pending", test: "created", deploy: "pending" },
      jobs: { build: "pending", test: "created", deploy: "pending" },
    });
  });

  it("dag_build_fails: jobs that need a failed job are skipped, others in later stages too", () => {
    new Sim(STAGES, {
      build: { stage: "build" },
      test: { stage: "test", needs: ["build"] },
      deploy: { stage: "deploy", needs: ["test"] },
    })
      .finish(["build"], "drop")
      .expect({
        pipeline: "failed",
        stages: { build: "failed", test: "skipped", deploy: "skipped" },
        jobs: { build: "failed", test: "skipped", deploy: "skipped" },
      });
  });

  it("dag_build_fails_test_on_failure / _test_always: on_failure and always DAG jobs run after the failure they need", () => {
    new Sim(STAGES, {
      build: { stage: "build" },
      rollback: { stage: "test", when: "on_failure", needs: ["build"] },
      notify: { stage: "test", when: "always", needs: ["build"] },
      deploy: { stage: "deploy", needs: ["build"] },
    })
      .finish(["build"], "drop")
      .expect({
        pipeline: "running",
        stages: { build: "failed", test: "pending", deploy: "skipped" },
        jobs: { build: "failed", rollback: "pending", notify: "pending", deploy: "skipped" },
      });
  });

  it("a stage-based job runs after skipped stages, a DAG job does not run after a skipped need", () => {
    new Sim(STAGES, {
      build: { stage: "build", when: "on_failure" },
      test: { stage: "test" },
      deploy: { stage: "deploy", needs: ["build"] },
    }).expect({
      pipeline: "pending",
      stages: { build: "skipped", test: "pending", deploy: "skipped" },
      jobs: { build: "skipped", test: "pending", deploy: "skipped" },
    });
  });
});
