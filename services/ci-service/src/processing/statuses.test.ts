import { isJobStatus, JOB_STATUSES } from "@quarry/gitlab";
import { describe, expect, it } from "vitest";
import {
  FAILURE_REASON_CODES,
  canTransition,
  failureReasonFromCode,
  fireEvent,
  isActive,
  isAlive,
  isBlocked,
  isCancelable,
  isComplete,
  isFailedButAllowed,
  isFailureReason,
  isPlayable,
  isRetryable,
  isStopped,
  type JobStatus,
} from "./statuses.ts";

describe("status sets", () => {
  it("lists the twelve job statuses of the API", () => {
    expect(JOB_STATUSES).toHaveLength(12);
    expect(isJobStatus("waiting_for_resource")).toBe(true);
    expect(isJobStatus("waiting_for_callback")).toBe(false);
  });

  it.each<[JobStatus, { active: boolean; complete: boolean; blocked: boolean; alive: boolean; cancelable: boolean }]>([
    ["created", { active: false, complete: false, blocked: false, alive: true, cancelable: true }],
    ["waiting_for_resource", { active: true, complete: false, blocked: false, alive: true, cancelable: true }],
    ["preparing", { active: true, complete: false, blocked: false, alive: true, cancelable: true }],
    ["pending", { active: true, complete: false, blocked: false, alive: true, cancelable: true }],
    ["running", { active: true, complete: false, blocked: false, alive: true, cancelable: true }],
    ["canceling", { active: false, complete: false, blocked: false, alive: true, cancelable: false }],
    ["success", { active: false, complete: true, blocked: false, alive: false, cancelable: false }],
    ["failed", { active: false, complete: true, blocked: false, alive: false, cancelable: false }],
    ["canceled", { active: false, complete: true, blocked: false, alive: false, cancelable: false }],
    ["skipped", { active: false, complete: true, blocked: false, alive: false, cancelable: false }],
    ["manual", { active: false, complete: false, blocked: true, alive: false, cancelable: false }],
    ["scheduled", { active: false, complete: false, blocked: true, alive: false, cancelable: true }],
  ])("%s", (s, expected) => {
    expect({
      active: isActive(s),
      complete: isComplete(s),
      blocked: isBlocked(s),
      alive: isAlive(s),
      cancelable: isCancelable(s),
    }).toEqual(expected);
    expect(isStopped(s)).toBe(expected.complete || expected.blocked);
  });
});

describe("fireEvent", () => {
  it("enqueues created, skipped, manual and scheduled jobs, honouring resource groups and prerequisites", () => {
    for (const from of ["created", "skipped", "manual", "scheduled"] as const) {
      expect(fireEvent(from, "enqueue")).toBe("pending");
    }
    expect(fireEvent("created", "enqueue", { resourceGroup: true })).toBe("waiting_for_resource");
    expect(fireEvent("created", "enqueue", { unmetPrerequisites: true })).toBe("preparing");
    expect(fireEvent("running", "enqueue")).toBeNull();
    expect(fireEvent("success", "enqueue")).toBeNull();
  });

  it("moves resource-waiting and preparing jobs on to pending", () => {
    expect(fireEvent("waiting_for_resource", "enqueue_waiting_for_resource")).toBe("pending");
    expect(fireEvent("waiting_for_resource", "enqueue_waiting_for_resource", { unmetPrerequisites: true })).toBe("preparing");
    expect(fireEvent("preparing", "enqueue_preparing")).toBe("pending");
    expect(fireEvent("scheduled", "enqueue_scheduled")).toBe("pending");
    expect(fireEvent("scheduled", "unschedule")).toBe("manual");
  });

  it("processing turns created jobs into manual, scheduled or skipped ones", () => {
    expect(fireEvent("created", "actionize")).toBe("manual");
    expect(fireEvent("created", "schedule")).toBe("scheduled");
    expect(fireEvent("created", "skip")).toBe("skipped");
    expect(fireEvent("pending", "skip")).toBe("skipped");
    expect(fireEvent("running", "skip")).toBeNull();
    expect(fireEvent("manual", "skip")).toBeNull();
  });

  it("runs only pending jobs", () => {
    expect(fireEvent("pending", "run")).toBe("running");
    expect(fireEvent("created", "run")).toBeNull();
  });

  it("a canceling job ends canceled whatever the runner reports", () => {
    expect(fireEvent("canceling", "success")).toBe("canceled");
    expect(fireEvent("canceling", "drop")).toBe("canceled");
    expect(fireEvent("running", "success")).toBe("success");
    expect(fireEvent("running", "drop")).toBe("failed");
    expect(fireEvent("manual", "drop")).toBe("failed");
    expect(fireEvent("success", "drop")).toBeNull();
  });

  it("cancels a running job through canceling only when its runner supports it", () => {
    expect(fireEvent("running", "cancel")).toBe("canceled");
    expect(fireEvent("running", "cancel", { supportsCanceling: true })).toBe("canceling");
    expect(fireEvent("pending", "cancel", { supportsCanceling: true })).toBe("canceled");
    expect(fireEvent("manual", "cancel")).toBe("canceled");
    expect(fireEvent("canceling", "cancel")).toBeNull();
    expect(fireEvent("canceling", "force_cancel")).toBe("canceled");
    expect(fireEvent("success", "cancel")).toBeNull();
  });

  it("resets skipped and manual jobs for reprocessing", () => {
    expect(fireEvent("skipped", "process")).toBe("created");
    expect(fireEvent("manual", "process")).toBe("created");
    expect(fireEvent("failed", "process")).toBeNull();
  });
});

describe("canTransition", () => {
  it.each<[JobStatus, JobStatus, boolean]>([
    ["created", "waiting_for_resource", true],
    ["created", "preparing", true],
    ["created", "pending", true],
    ["created", "skipped", true],
    ["created", "manual", true],
    ["created", "scheduled", true],
    ["created", "canceled", true],
    ["created", "running", false],
    ["pending", "running", true],
    ["pending", "canceled", true],
    ["pending", "failed", true],
    ["running", "success", true],
    ["running", "failed", true],
    ["running", "canceling", true],
    ["running", "canceled", true],
    ["running", "pending", false],
    ["canceling", "canceled", true],
    ["canceling", "failed", false],
    ["canceling", "success", false],
    ["manual", "pending", true],
    ["manual", "canceled", true],
    ["manual", "created", true],
    ["scheduled", "manual", true],
    ["skipped", "created", true],
    // Finished jobs never change again: a retry creates a new job.
    ["success", "pending", false],
    ["failed", "pending", false],
    ["canceled", "pending", false],
    ["failed", "created", false],
    ["success", "success", false],
  ])("%s → %s: %s", (from, to, allowed) => {
    expect(canTransition(from, to)).toBe(allowed);
  });
});

describe("retry and play", () => {
  it("retries finished jobs that were not retried already", () => {
    for (const s of ["success", "failed", "canceled", "canceling"] as const) {
      expect(isRetryable({ status: s, retried: false })).toBe(true);
    }
    for (const s of ["created", "pending", "running", "manual", "skipped", "scheduled"] as const) {
      expect(isRetryable({ status: s, retried: false })).toBe(false);
    }
    expect(isRetryable({ status: "failed", retried: true })).toBe(false);
    expect(isRetryable({ status: "failed", retried: false, archived: true })).toBe(false);
  });

  it("plays manual jobs that wait, or finished manual jobs", () => {
    expect(isPlayable({ status: "manual", when: "manual", retried: false })).toBe(true);
    expect(isPlayable({ status: "success", when: "manual", retried: false })).toBe(true);
    expect(isPlayable({ status: "pending", when: "manual", retried: false })).toBe(false);
    expect(isPlayable({ status: "success", when: "on_success", retried: false })).toBe(false);
  });

  it("an allowed failure or cancel is failed but allowed", () => {
    expect(isFailedButAllowed({ status: "failed", allowFailure: true })).toBe(true);
    expect(isFailedButAllowed({ status: "canceled", allowFailure: true })).toBe(true);
    expect(isFailedButAllowed({ status: "failed", allowFailure: false })).toBe(false);
    expect(isFailedButAllowed({ status: "success", allowFailure: true })).toBe(false);
  });
});

describe("failure reasons", () => {
  it("knows GitLab's names and stored codes", () => {
    expect(isFailureReason("script_failure")).toBe(true);
    expect(isFailureReason("runner_unsupported")).toBe(true);
    expect(isFailureReason("toString")).toBe(false);
    expect(FAILURE_REASON_CODES.stuck_or_timeout_failure).toBe(3);
    expect(failureReasonFromCode(8)).toBe("job_execution_timeout");
    expect(failureReasonFromCode(null)).toBe("unknown_failure");
    expect(failureReasonFromCode(99999)).toBe("unknown_failure");
  });
});
