import { describe, expect, it } from "vitest";
import { nextPipelineStatus, nextStageStatus } from "./pipeline-status.ts";
import type { JobStatus } from "./statuses.ts";

describe("nextPipelineStatus (Ci::Pipeline#set_status)", () => {
  it.each<[JobStatus, JobStatus, JobStatus]>([
    ["created", "pending", "pending"],
    ["manual", "pending", "pending"],
    ["skipped", "pending", "pending"],
    ["running", "pending", "running"],
    // A finished pipeline that gets jobs again (a retry) is running, not pending.
    ["success", "pending", "running"],
    ["failed", "pending", "running"],
    ["canceled", "pending", "running"],
    ["canceling", "pending", "running"],
    // Jobs that are only `created` do not change the stored status.
    ["failed", "created", "failed"],
    ["created", "created", "created"],
    ["running", "canceling", "canceling"],
    ["canceled", "canceling", "canceled"],
    ["running", "success", "success"],
    ["running", "failed", "failed"],
    ["pending", "manual", "manual"],
    ["created", "skipped", "skipped"],
    ["created", "scheduled", "scheduled"],
  ])("%s with jobs %s → %s", (current, computed, expected) => {
    expect(nextPipelineStatus(current, computed)).toBe(expected);
  });
});

describe("nextStageStatus (Ci::Stage#set_status)", () => {
  it("takes the computed status, except that `created` keeps the stored one", () => {
    expect(nextStageStatus("failed", "pending")).toBe("pending");
    expect(nextStageStatus("skipped", "created")).toBe("skipped");
    expect(nextStageStatus("created", "created")).toBe("created");
  });
});
