import { describe, expect, it } from "vitest";
import { compareVersions, isValidTagName } from "./tags.ts";

describe("compareVersions", () => {
  it("orders like version numbers: numerically, pre-releases before releases, extra numbers after", () => {
    const names = ["v1.10.0", "v1.9.0", "v1.10.0-rc1", "v1.10.0-beta", "v1.10.0.1", "v2", "v1.10.0-rc2", "v1.2"];
    expect([...names].sort(compareVersions)).toEqual(["v1.2", "v1.9.0", "v1.10.0-beta", "v1.10.0-rc1", "v1.10.0-rc2", "v1.10.0", "v1.10.0.1", "v2"]);
  });
});

describe("isValidTagName", () => {
  it("takes git's ref rules and GitLab's reserved prefixes", async () => {
    for (const ok of ["v1", "release/1.0", "ünicode", "a-b_c", `${"a".repeat(250)}/${"a".repeat(250)}`]) expect(await isValidTagName(ok), ok).toBe(true);
    for (const bad of [
      "",
      "HEAD",
      "-x",
      "refs/tags/x",
      "refs/heads/x",
      "refs/remotes/x",
      "a b",
      "a..b",
      "a.lock",
      "a/",
      "@",
      "x^",
      "a".repeat(251),
      `x/${"é".repeat(126)}`,
    ]) {
      expect(await isValidTagName(bad), bad).toBe(false);
    }
  });
});
