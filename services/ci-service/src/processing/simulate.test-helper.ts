// Test-only harness: drives the pure planners the way ci-service will (apply a plan, then run
// processing again), so scenarios read like GitLab's spec/services/ci/pipeline_processing/test_cases.
import { expect } from "vitest";
import { cancelPipeline } from "./cancel-pipeline.ts";
import { processPipeline } from "./process-pipeline.ts";
import { applyChanges, type ProcessableJob } from "./processable.ts";
import { applyRetryPlan, playJob, retryJob, retryPipeline, type RetryPlan } from "./retry.ts";
import { type JobEvent, type JobStatus, type JobWhen, fireEvent } from "./statuses.ts";

export interface JobSpec {
  stage: string;
  when?: JobWhen;
  /** Defaults as in GitLab's config: true for `when: manual`, else false. */
  allowFailure?: boolean;
  needs?: string[];
}

export interface Snapshot {
  pipeline: JobStatus;
  stages: Record<string, JobStatus>;
  jobs: Record<string, JobStatus>;
}

export class Sim {
  jobs: ProcessableJob[];
  pipeline: JobStatus = "created";
  stageStatus: Record<number, JobStatus> = {};
  warnings = false;
  private nextId: number;

  constructor(
    private readonly stages: string[],
    config: Record<string, JobSpec>,
  ) {
    this.jobs = Object.entries(config).map(([name, spec], i) => {
      const when = spec.when ?? "on_success";
      return {
        id: i + 1,
        name,
        stageIdx: this.stageIdx(spec.stage),
        status: "created",
        when,
        allowFailure: spec.allowFailure ?? when === "manual",
        needs: spec.needs ?? null,
        retried: false,
      };
    });
    this.nextId = this.jobs.length + 1;
    this.process();
  }

  private stageIdx(stage: string): number {
    const idx = this.stages.indexOf(stage);
    if (idx < 0) throw new Error(`unknown stage ${stage}`);
    return idx;
  }

  private job(name: string): ProcessableJob {
    const job = this.jobs.find((j) => j.name === name && !j.retried);
    if (!job) throw new Error(`no job ${name}`);
    return job;
  }

  process(): void {
    const result = processPipeline(this.jobs, { pipeline: this.pipeline, stages: this.stageStatus });
    this.jobs = applyChanges(this.jobs, result.changes);
    this.pipeline = result.status;
    this.warnings = result.warnings;
    for (const s of result.stages) this.stageStatus[s.stageIdx] = s.status;
  }

  /** A state machine event on jobs (a runner reporting, a user canceling one job), then processing. */
  event(event: JobEvent, names: string[], conditions = {}): this {
    for (const name of names) {
      const job = this.job(name);
      const to = fireEvent(job.status, event, conditions);
      if (!to) throw new Error(`${event} does not apply to ${name} (${job.status})`);
      this.jobs = applyChanges(this.jobs, [{ id: job.id, from: job.status, to }]);
    }
    this.process();
    return this;
  }

  /** Runs and finishes jobs: pending → running → success/failed. */
  finish(names: string[], outcome: "success" | "drop"): this {
    return this.event("run", names).event(outcome, names);
  }

  private applyPlan(plan: RetryPlan | null): this {
    if (!plan) throw new Error("nothing to do");
    this.jobs = applyRetryPlan(this.jobs, plan, () => this.nextId++);
    this.process();
    return this;
  }

  play(name: string): this {
    return this.applyPlan(playJob(this.jobs, this.job(name).id));
  }

  retry(name: string): this {
    return this.applyPlan(retryJob(this.jobs, this.job(name).id));
  }

  retryPipeline(): this {
    return this.applyPlan(retryPipeline(this.jobs));
  }

  cancel(supportsCanceling = false): this {
    const result = cancelPipeline(this.jobs.map((j) => ({ ...j, supportsCanceling })));
    this.jobs = applyChanges(this.jobs, result.changes);
    this.process();
    return this;
  }

  snapshot(): Snapshot {
    const stages: Record<string, JobStatus> = {};
    this.stages.forEach((name, idx) => {
      if (this.stageStatus[idx]) stages[name] = this.stageStatus[idx];
    });
    const jobs: Record<string, JobStatus> = {};
    for (const j of this.jobs) if (!j.retried) jobs[j.name] = j.status;
    return { pipeline: this.pipeline, stages, jobs };
  }

  expect(expected: Snapshot): this {
    expect(this.snapshot()).toEqual(expected);
    return this;
  }
}
