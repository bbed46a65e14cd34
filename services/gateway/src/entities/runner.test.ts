import { describe, expect, it } from "vitest";
import { runnerEntity } from "./runner.ts";

const now = Date.parse("2026-11-26T12:00:00Z");
const ago = (ms: number) => new Date(now - ms).toISOString();
const runner = (o: { paused?: boolean; createdAt?: string; contactedAt?: string; runnerType?: string } = {}) => ({
  id: "5",
  description: "box",
  paused: false,
  runnerType: "project_type",
  createdAt: ago(60_000),
  contactedAt: "",
  ...o,
});

describe("runnerEntity", () => {
  it("has GitLab's Runner fields", () => {
    expect(runnerEntity(runner({ runnerType: "instance_type" }), true, now)).toEqual({
      id: 5,
      description: "box",
      ip_address: null,
      active: true,
      paused: false,
      is_shared: true,
      runner_type: "instance_type",
      name: null,
      online: false,
      created_at: ago(60_000),
      status: "never_contacted",
      job_execution_status: "active",
    });
  });

  it("derives GitLab's deprecated REST status", () => {
    const status = (o: Parameters<typeof runner>[0]) => runnerEntity(runner(o), false, now).status;
    expect(status({ contactedAt: ago(60_000) })).toBe("online");
    expect(status({ contactedAt: ago(3 * 3600_000) })).toBe("offline");
    expect(status({ contactedAt: ago(60_000), paused: true })).toBe("paused");
    expect(status({ createdAt: ago(8 * 86400_000) })).toBe("stale");
    expect(status({ createdAt: ago(8 * 86400_000), contactedAt: ago(60_000) })).toBe("online");
    expect(runnerEntity(runner({ contactedAt: ago(60_000) }), false, now)).toMatchObject({ online: true, job_execution_status: "idle" });
  });
});
