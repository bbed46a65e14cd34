import { describe, expect, it } from "vitest";
import { parseDuration } from "./duration.ts";

describe("parseDuration", () => {
  it.each([
    ["3600", 3600],
    ["1h 30m", 5400],
    ["1h30m", 5400],
    ["90 minutes", 5400],
    ["1 hour and 30 mins", 5400],
    ["1.5 hours", 5400],
    ["2 days", 172_800],
    ["1 week", 604_800],
    ["2 wks", 1_209_600],
    ["1 month", 2_592_000],
    ["1 year", 31_557_600],
    ["30 sec", 30],
    ["01:30:00", 5400],
    ["1:30", 90],
    ["  10 Minutes ", 600],
    [3600, 3600],
  ])("%j is %d seconds", (input, seconds) => {
    expect(parseDuration(input)).toBe(seconds);
  });

  it.each([["never"], ["soon"], [""], ["10 parsecs"], ["h"], [true], [null], [-5]])("%j is not a duration", (input) => {
    expect(parseDuration(input)).toBeNull();
  });
});
