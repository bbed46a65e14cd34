import { describe, expect, it } from "vitest";
import { humanTime } from "./hook-attrs.ts";
import { hookTime } from "./outbox.ts";

describe("hook data formats", () => {
  it("shows times as GitLab's hook data does", () => {
    expect(hookTime(new Date("2023-07-04T20:44:11.123Z"))).toBe("2023-07-04 20:44:11 UTC");
    expect(hookTime(null)).toBeNull();
  });

  it("formats durations as Gitlab::TimeTrackingFormatter (8-hour days, 5-day weeks)", () => {
    expect(humanTime(0)).toBeNull();
    expect(humanTime(90 * 60)).toBe("1h 30m");
    expect(humanTime((40 + 8 + 1) * 3600 + 60)).toBe("1w 1d 1h 1m");
    expect(humanTime(-3600)).toBe("-1h");
  });
});
