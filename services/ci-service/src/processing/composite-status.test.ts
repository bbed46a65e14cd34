import { describe, expect, it } from "vitest";
import { compositeStatus } from "./composite-status.ts";
import type { JobStatus } from "./statuses.ts";

const jobs = (statuses: JobStatus[], allowFailure = false) => statuses.map((status) => ({ status, allowFailure }));

describe("compositeStatus", () => {
  it("is null for no jobs", () => {
    expect(compositeStatus([])).toEqual({ status: null, warnings: false });
  });

  // Mirrors GitLab's spec/lib/gitlab/ci/status/composite_spec.rb, "allow_failure: false".
  it.each<[JobStatus[], boolean, JobStatus]>([
    [["skipped"], false, "skipped"],
    [["skipped", "success"], false, "success"],
    [["skipped", "success"], true, "skipped"],
    [["created"], false, "created"],
    [["preparing"], false, "preparing"],
    [["canceled", "success", "skipped"], false, "canceled"],
    [["canceled", "success", "skipped"], true, "skipped"],
    [["pending", "created", "skipped"], false, "pending"],
    [["pending", "created", "skipped", "success"], false, "running"],
    [["running", "created", "skipped", "success"], false, "running"],
    [["pending", "created", "skipped"], true, "skipped"],
    [["pending", "created", "skipped", "success"], true, "skipped"],
    [["running", "created", "skipped", "success"], true, "skipped"],
    [["success", "waiting_for_resource"], false, "waiting_for_resource"],
    [["success", "manual"], false, "manual"],
    [["success", "scheduled"], false, "scheduled"],
    [["created", "preparing"], false, "preparing"],
    [["created", "success", "pending"], false, "running"],
    [["skipped", "success", "failed"], false, "failed"],
    [["skipped", "success", "failed"], true, "skipped"],
    [["success", "manual"], true, "manual"],
    [["success", "failed", "created"], true, "running"],
  ])("%j (dag %s) → %s", (statuses, dag, status) => {
    expect(compositeStatus(jobs(statuses), { dag })).toEqual({ status, warnings: false });
  });

  // Mirrors the spec's "allow_failure: true" table: every job is allowed to fail.
  it.each<[JobStatus[], boolean, JobStatus, boolean]>([
    [["manual"], false, "skipped", false],
    [["skipped", "failed"], false, "success", true],
    [["skipped", "failed"], true, "skipped", true],
    [["success", "manual"], true, "skipped", false],
    [["success", "manual"], false, "success", false],
    [["created", "failed"], false, "created", true],
    [["preparing", "manual"], false, "preparing", false],
  ])("allowed to fail: %j (dag %s) → %s, warnings %s", (statuses, dag, status, warnings) => {
    expect(compositeStatus(jobs(statuses, true), { dag })).toEqual({ status, warnings });
  });

  it("counts an allowed failure or cancel as success with warnings", () => {
    expect(compositeStatus([...jobs(["success"]), ...jobs(["failed"], true)])).toEqual({
      status: "success",
      warnings: true,
    });
    expect(compositeStatus([...jobs(["success"]), ...jobs(["canceled"], true)])).toEqual({
      status: "success",
      warnings: true,
    });
  });

  it("a failure that is not allowed wins over allowed ones", () => {
    expect(compositeStatus([...jobs(["failed"]), ...jobs(["failed"], true)])).toEqual({
      status: "failed",
      warnings: true,
    });
  });

  it("a blocking manual job (allow_failure false) blocks; a non-blocking one is ignored", () => {
    expect(compositeStatus(jobs(["success", "manual"])).status).toBe("manual");
    expect(compositeStatus([...jobs(["success"]), ...jobs(["manual"], true)]).status).toBe("success");
    expect(compositeStatus([...jobs(["created"]), ...jobs(["manual"], true)]).status).toBe("created");
  });

  it("ranks the remaining cases in GitLab's order", () => {
    expect(compositeStatus(jobs(["failed", "running"])).status).toBe("running");
    expect(compositeStatus(jobs(["failed", "waiting_for_resource", "manual"])).status).toBe("waiting_for_resource");
    expect(compositeStatus(jobs(["failed", "manual", "scheduled"])).status).toBe("manual");
    expect(compositeStatus(jobs(["failed", "scheduled", "preparing"])).status).toBe("scheduled");
    expect(compositeStatus(jobs(["failed", "preparing", "created"])).status).toBe("preparing");
    expect(compositeStatus(jobs(["failed", "created"])).status).toBe("running");
    expect(compositeStatus(jobs(["failed", "canceling"])).status).toBe("canceling");
    expect(compositeStatus(jobs(["canceled", "canceling"])).status).toBe("canceling");
    expect(compositeStatus(jobs(["canceled", "failed"])).status).toBe("failed");
    expect(compositeStatus(jobs(["pending"])).status).toBe("pending");
    expect(compositeStatus(jobs(["success"])).status).toBe("success");
    expect(compositeStatus(jobs(["canceled"])).status).toBe("canceled");
  });

  it("an allowed-to-fail job that has not failed counts by its own status", () => {
    expect(compositeStatus(jobs(["running"], true)).status).toBe("running");
    expect(compositeStatus(jobs(["success"], true))).toEqual({ status: "success", warnings: false });
  });
});
