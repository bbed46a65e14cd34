import { describe, expect, it } from "vitest";
import { dagOrder } from "./dag-order.ts";

const names = (jobs: { name: string }[]) => jobs.map((j) => j.name);

describe("dagOrder", () => {
  it("puts needed jobs first and keeps the input order otherwise", () => {
    const jobs = [
      { name: "deploy", needs: ["test"] },
      { name: "lint", needs: null },
      { name: "test", needs: ["build", "elsewhere"] },
      { name: "build", needs: [] },
    ];
    expect(names(dagOrder(jobs))).toEqual(["build", "test", "deploy", "lint"]);
  });

  it("terminates on a cycle", () => {
    const jobs = [
      { name: "a", needs: ["b"] },
      { name: "b", needs: ["a"] },
    ];
    expect(names(dagOrder(jobs)).sort()).toEqual(["a", "b"]);
  });
});
