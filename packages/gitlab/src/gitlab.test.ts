import { describe, expect, it } from "vitest";
import {
  ACCESS_LEVEL_NAMES,
  AccessLevel,
  accessLevelName,
  accessLevelOf,
  ACTIVE_STATUSES,
  ALIVE_STATUSES,
  BLOCKED_STATUSES,
  branchOfRef,
  branchRef,
  COMPLETED_STATUSES,
  isBranchRef,
  isJobStatus,
  isPositiveInt32,
  isTagRef,
  isVisibility,
  JOB_STATUSES,
  MAX_INT32,
  numericRowId,
  MEMBER_ACCESS_LEVELS,
  notFoundMessage,
  PIPELINE_STATUSES,
  PROJECT_CREATION_LEVELS,
  RECORD_NOT_FOUND_MESSAGE,
  STOPPED_STATUSES,
  SUBGROUP_CREATION_LEVELS,
  tagOfRef,
  tagRef,
  VISIBILITIES,
  VISIBILITY_LEVEL,
  visibilityName,
} from "./index.ts";

describe("access levels", () => {
  it("are GitLab's numbers", () => {
    expect(AccessLevel).toEqual({ NO_ACCESS: 0, MINIMAL: 5, GUEST: 10, PLANNER: 15, REPORTER: 20, DEVELOPER: 30, MAINTAINER: 40, OWNER: 50, ADMIN: 60 });
    expect(MEMBER_ACCESS_LEVELS).toEqual([5, 10, 15, 20, 30, 40, 50]);
    expect(PROJECT_CREATION_LEVELS).toEqual(["noone", "owner", "maintainer", "developer"]);
    expect(SUBGROUP_CREATION_LEVELS).toEqual(["owner", "maintainer"]);
  });

  it("map names to numbers and back", () => {
    expect(accessLevelName(10)).toBe("Guest");
    expect(accessLevelName(40)).toBe("Maintainer");
    expect(accessLevelName(5)).toBe("Minimal Access");
    expect(accessLevelName(41)).toBeUndefined();
    expect(accessLevelOf("maintainer")).toBe(40);
    expect(accessLevelOf("Owner")).toBe(50);
    expect(accessLevelOf("nobody")).toBeUndefined();
    for (const [level, name] of Object.entries(ACCESS_LEVEL_NAMES)) expect(accessLevelOf(name)).toBe(Number(level));
  });
});

describe("visibility", () => {
  it("maps names to Gitlab::VisibilityLevel and back", () => {
    expect(VISIBILITIES).toEqual(["private", "internal", "public"]);
    expect(VISIBILITY_LEVEL).toEqual({ private: 0, internal: 10, public: 20 });
    expect(VISIBILITIES.map((v) => visibilityName(VISIBILITY_LEVEL[v]!))).toEqual([...VISIBILITIES]);
    expect(visibilityName(5)).toBeUndefined();
    expect(isVisibility("internal")).toBe(true);
    expect(isVisibility("secret")).toBe(false);
  });
});

describe("CI statuses", () => {
  it("are Ci::HasStatus::AVAILABLE_STATUSES, for jobs and pipelines", () => {
    expect(JOB_STATUSES).toHaveLength(12);
    expect(PIPELINE_STATUSES).toBe(JOB_STATUSES);
    expect(isJobStatus("running")).toBe(true);
    expect(isJobStatus("finished")).toBe(false);
  });

  it("groups them as GitLab does", () => {
    expect(STOPPED_STATUSES).toEqual([...COMPLETED_STATUSES, ...BLOCKED_STATUSES]);
    for (const s of JOB_STATUSES) {
      // Alive is neither completed nor blocked; every active status is alive.
      expect(ALIVE_STATUSES.includes(s)).toBe(!STOPPED_STATUSES.includes(s));
      if (ACTIVE_STATUSES.includes(s)) expect(ALIVE_STATUSES).toContain(s);
    }
  });
});

describe("refs", () => {
  it("build and read branch and tag refs", () => {
    expect(branchRef("main")).toBe("refs/heads/main");
    expect(tagRef("v1")).toBe("refs/tags/v1");
    expect(isBranchRef("refs/heads/a/b")).toBe(true);
    expect(isTagRef("refs/heads/a")).toBe(false);
    expect(branchOfRef("refs/heads/a/b")).toBe("a/b");
    expect(branchOfRef("refs/tags/a")).toBeNull();
    expect(tagOfRef("refs/tags/v1")).toBe("v1");
    expect(tagOfRef("refs/heads/v1")).toBeNull();
  });
});

describe("ids", () => {
  it("accept positive int32 integers only", () => {
    expect(MAX_INT32).toBe(2147483647);
    for (const ok of [1, 42, 2147483647]) expect(isPositiveInt32(ok)).toBe(true);
    for (const bad of [0, -1, 1.5, 2147483648, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY]) expect(isPositiveInt32(bad)).toBe(false);
  });

  it("read an all-digits :id_or_path as a row id, 0 when no row can have it", () => {
    expect(numericRowId("42")).toBe(42);
    expect(numericRowId("2147483647")).toBe(2147483647);
    expect(numericRowId("2147483648")).toBe(0);
    expect(numericRowId("99999999999999999999")).toBe(0);
    expect(numericRowId("0")).toBe(0);
    expect(numericRowId("group/42")).toBeUndefined();
    expect(numericRowId("-1")).toBeUndefined();
  });
});

describe("messages", () => {
  it("word a 404 as GitLab does", () => {
    expect(notFoundMessage("Project")).toBe("404 Project Not Found");
    expect(notFoundMessage()).toBe("404 Not Found");
    expect(notFoundMessage("")).toBe("404 Not Found");
    expect(RECORD_NOT_FOUND_MESSAGE).toBe("404 Not found");
  });
});
