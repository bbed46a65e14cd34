import { describe, expect, it } from "vitest";
import type { ApiError } from "./errors.ts";
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

describe("limits and ids", () => {
  it("answers an id no record can have with 404 after the parameter errors", () => {
    expect(errorOf(() => parseParams({ id: p.id("User") }, { id: "2147483648" })).body).toEqual({ message: "404 User Not Found" });
    expect(errorOf(() => parseParams({ job_id: p.id() }, { job_id: 0 })).body).toEqual({ message: "404 Not found" });
    expect(errorOf(() => parseParams({ id: p.id("User"), name: p.string() }, { id: "2147483648" })).body).toEqual({ error: "name is missing" });
    expect(parseParams({ id: p.id("User") }, { id: "2147483647" }).id).toBe(2147483647);
  });

  it("keeps other integers within what a service takes", () => {
    expect(errorOf(() => parseParams({ access_level: p.int() }, { access_level: "2147483648" })).body).toEqual({
      error: "access_level does not have a valid value",
    });
  });

  it("words oversized values as GitLab does: Grape's validators, then ActiveRecord's", () => {
    const shape = { ref: p.ref("ref"), search: p.searchTerm("search").optional(), name: p.name("name"), description: p.name("description", 2000).optional() };
    expect(errorOf(() => parseParams(shape, { ref: "r".repeat(1025), search: "s".repeat(4097), name: "n".repeat(256) })).body).toEqual({
      error: "ref should be a valid reference path, search must be less than 4096 characters",
    });
    expect(errorOf(() => parseParams(shape, { ref: "r".repeat(1024), name: "n".repeat(256), description: "d".repeat(2001) })).body).toEqual({
      message: { name: ["is too long (maximum is 255 characters)"], description: ["is too long (maximum is 2000 characters)"] },
    });
  });
});

describe("parameter schemas", () => {
  it("are built once per argument list and shared between requests", () => {
    expect(p.bool()).toBe(p.bool());
    expect(p.id("Project")).toBe(p.id("Project"));
    expect(p.id("Project")).not.toBe(p.id("Group"));
    expect(p.ref("ref")).toBe(p.ref("ref"));
    expect(p.enum(["asc", "desc"])).toBe(p.enum(["asc", "desc"]));
    // A shared schema answers every request alike, its verdicts included.
    const shape = { a: p.bool(), b: p.bool().optional(), id: p.id("Project") };
    expect(parseParams(shape, { a: "yes", id: "7" })).toEqual({ a: true, b: undefined, id: 7 });
    expect(() => parseParams(shape, { a: "maybe", id: "7" })).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => parseParams(shape, { a: "no", id: "2147483648" })).toThrow(expect.objectContaining({ status: 404 }));
    expect(parseParams(shape, { a: "f", b: "1", id: 3 })).toEqual({ a: false, b: true, id: 3 });
  });
});
