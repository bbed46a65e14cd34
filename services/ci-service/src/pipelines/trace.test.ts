import { describe, expect, it } from "vitest";
import { extractCoverage } from "./trace.ts";

describe("extractCoverage (GitLab's Trace::Stream#extract_coverage)", () => {
  it("takes the last line that matches with a number, and the first number of the match", () => {
    expect(extractCoverage("Coverage: 10.0%\nCoverage: 20.5%\ndone\n", "Coverage: \\d+\\.\\d+%")).toBe(20.5);
    expect(extractCoverage("Lines: 85.5% (120/140)\r\n", "Lines: .*")).toBe(85.5);
    // A matching line without a number does not end the search.
    expect(extractCoverage("Coverage: 50%\nCoverage: n/a\n", "Coverage: .*")).toBe(50);
    expect(extractCoverage("nothing here\n", "Coverage: .*")).toBeNull();
    expect(extractCoverage("Coverage: 50%", null)).toBeNull();
  });

  it("uses the last capture group of the line's last match", () => {
    expect(extractCoverage("a 1% b 2%\n", "(\\d+)%")).toBe(2);
    expect(extractCoverage("Total: 85% of 120 lines\n", "Total: (\\d+)% of (\\d+)")).toBe(120);
    expect(extractCoverage("Total: 85%\n", "Total: (\\d+)%( lines)?")).toBeNull();
  });

  it("runs the pattern with RE2: its syntax, and linear time", () => {
    expect(extractCoverage("COVERAGE: 70%\n", "(?i)coverage: (\\d+)")).toBe(70);
    // A pattern RE2 refuses finds nothing; a runaway one answers at once.
    expect(extractCoverage("11 %\n", "(\\d)\\1")).toBeNull();
    expect(extractCoverage(`${"a".repeat(5000)}b 99%\n`, "^(a+)+$")).toBeNull();
  });
});
