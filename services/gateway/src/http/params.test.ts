import { describe, expect, it } from "vitest";
import { ApiError } from "./errors.ts";
import { p, parseParams, z } from "./params.ts";

const shape = {
  name: p.string().min(1),
  path: p.string().min(1),
  enabled: p.bool().optional(),
  count: p.int().optional(),
  scopes: p.array(z.string()).optional(),
};

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    return err as ApiError;
  }
  throw new Error("expected an error");
}

describe("parseParams", () => {
  it("reports every missing required parameter the way Grape does", () => {
    const err = errorOf(() => parseParams(shape, {}));
    expect(err.status).toBe(400);
    expect(err.body).toEqual({ error: "name is missing, path is missing" });
  });

  it("reports invalid values by name", () => {
    const err = errorOf(() => parseParams(shape, { name: "a", path: "b", enabled: "maybe", count: "x" }));
    expect(err.body).toEqual({ error: "enabled does not have a valid value, count does not have a valid value" });
  });

  it("accepts GitLab booleans in any case and integers from strings", () => {
    expect(parseParams(shape, { name: "a", path: "b", enabled: "TRUE", count: "7" })).toMatchObject({ enabled: true, count: 7 });
    expect(parseParams(shape, { name: "a", path: "b", enabled: "0" }).enabled).toBe(false);
    expect(parseParams(shape, { name: "a", path: "b", enabled: false }).enabled).toBe(false);
  });

  it("takes arrays from JSON, bracket notation and comma lists", () => {
    expect(parseParams(shape, { name: "a", path: "b", scopes: ["api", "read_api"] }).scopes).toEqual(["api", "read_api"]);
    expect(parseParams(shape, { name: "a", path: "b", "scopes[]": ["api"] }).scopes).toEqual(["api"]);
    expect(parseParams(shape, { name: "a", path: "b", scopes: "api,read_user" }).scopes).toEqual(["api", "read_user"]);
  });

  it("ignores unknown parameters", () => {
    expect(parseParams({ name: p.string() }, { name: "x", other: 1 })).toEqual({ name: "x" });
  });
});
