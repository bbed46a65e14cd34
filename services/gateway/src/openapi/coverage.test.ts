// How much of the API the OpenAPI document knows the parameters of. Describing stops at a route's
// first use of deps, so a route that asks a service (authorizes) before params() goes undocumented
// unless it declares its shape up front (declareParams).
// Which routes call params() at all is found by describing once more on deps that answer every call
// (here only: the routes then run on as if every service said yes).
import { describe, expect, it } from "vitest";
import type { GatewayDeps } from "../deps.ts";
import { v4Router } from "../routes/v4/index.ts";
import { describeRoutes, describingDeps } from "./describe.ts";
import { documented } from "./document.ts";

/** Deps whose every property and call is `value`: awaited it is itself, as a string "1", iterated empty. */
function answeringDeps() {
  const value: object = new Proxy(() => undefined, {
    get: (_t, key) => {
      if (key === "then") return undefined;
      if (key === Symbol.toPrimitive) return (hint: string) => (hint === "number" ? 1 : "1");
      if (key === Symbol.iterator) return function* () {};
      return value;
    },
    apply: () => value,
    construct: () => value,
  });
  return { deps: value as GatewayDeps, arm: () => undefined };
}

const key = (r: { method: string; path: string }) => `${r.method.toUpperCase()} ${r.path}`;

describe("the OpenAPI document's coverage", () => {
  it("documents every parameter of (nearly) every route that calls params()", async () => {
    const described = new Map((await describeRoutes(v4Router, describingDeps())).map((r) => [key(r), r]));
    const calling = (await describeRoutes(v4Router, answeringDeps())).filter((r) => r.shape);
    // Parameters a route parses (when every service says yes) that its description lacks.
    const missed = calling.flatMap((r) => {
      const lacking = Object.keys(r.shape!).filter((name) => !(name in (described.get(key(r))?.shape ?? {})));
      return lacking.length ? [`${key(r)} (${lacking.join(", ")})`] : [];
    });
    const coverage = (calling.length - missed.length) / calling.length;
    console.info(
      `every parameter documented for ${calling.length - missed.length} of ${calling.length} routes calling params() (${(coverage * 100).toFixed(1)}%)`,
    );
    expect(calling.length).toBeGreaterThan(350);
    expect(coverage, `missing (declare them with declareParams): ${missed.join("; ")}`).toBeGreaterThanOrEqual(0.97);
    // And of all routes: those whose parameters are known (a shape, or none taken).
    const all = [...described.values()];
    expect(all.filter(documented).length / all.length).toBeGreaterThanOrEqual(0.88);
  });
});
