// How much of the API the OpenAPI document knows the parameters of. Describing stops at a route's
// first use of deps, so a route that asks a service (authorizes) before params() goes undocumented.
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
  it("documents the parameters of (nearly) every route that calls params()", async () => {
    const described = await describeRoutes(v4Router, describingDeps());
    const calling = (await describeRoutes(v4Router, answeringDeps())).filter((r) => r.shape).map(key);
    const captured = new Set(described.filter((r) => r.shape).map(key));
    const missed = calling.filter((k) => !captured.has(k));
    const coverage = (calling.length - missed.length) / calling.length;
    console.info(`parameters documented for ${calling.length - missed.length} of ${calling.length} routes calling params() (${(coverage * 100).toFixed(1)}%)`);
    expect(calling.length).toBeGreaterThan(350);
    expect(coverage, `undocumented: ${missed.join(", ")}`).toBeGreaterThanOrEqual(0.95);
    // And of all routes: those whose parameters are known (a shape, or none taken).
    expect(described.filter(documented).length / described.length).toBeGreaterThanOrEqual(0.85);
  });
});
