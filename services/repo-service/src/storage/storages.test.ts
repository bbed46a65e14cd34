import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setUp, withTwoStorages, type TestContext } from "../../test/support.ts";
import { parseStorageConfig, pickWeighted, READ_ONLY_MESSAGE, RepositoryStorages } from "./storages.ts";

describe("parseStorageConfig", () => {
  it("defaults to one storage, default, at the repositories root", () => {
    expect(parseStorageConfig(undefined, undefined, "/data/repositories")).toEqual([{ name: "default", root: "/data/repositories", weight: 100 }]);
  });

  it("reads QUARRY_STORAGES and QUARRY_STORAGE_WEIGHTS (others weigh 0 unless given)", () => {
    expect(parseStorageConfig("default=/a, fast=/b ,slow=/c", "default=60,fast=40", "/ignored")).toEqual([
      { name: "default", root: "/a", weight: 60 },
      { name: "fast", root: "/b", weight: 40 },
      { name: "slow", root: "/c", weight: 0 },
    ]);
  });

  it("refuses a missing default, duplicates, malformed entries and weights of unknown storages", () => {
    expect(() => parseStorageConfig("fast=/b", undefined, "/r")).toThrow(/"default" is required/);
    expect(() => parseStorageConfig("default=/a,default=/b", undefined, "/r")).toThrow(/named twice/);
    expect(() => parseStorageConfig("default", undefined, "/r")).toThrow(/not name=value/);
    expect(() => parseStorageConfig(undefined, "fast=10", "/r")).toThrow(/unknown storage "fast"/);
    expect(() => parseStorageConfig(undefined, "default=101", "/r")).toThrow(/integer 0–100/);
  });
});

describe("pickWeighted", () => {
  const choices = [
    { name: "a", weight: 0 },
    { name: "b", weight: 30 },
    { name: "c", weight: 70 },
  ];
  it("chooses in proportion to the weights, never a weight of 0", () => {
    expect(pickWeighted(choices, () => 0)).toBe("b");
    expect(pickWeighted(choices, () => 29)).toBe("b");
    expect(pickWeighted(choices, () => 30)).toBe("c");
    expect(pickWeighted(choices, () => 99)).toBe("c");
  });
  it("answers null when every weight is 0", () => {
    expect(pickWeighted([{ name: "a", weight: 0 }])).toBeNull();
  });
});

describe("RepositoryStorages", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await setUp("repo_storages");
  });
  afterAll(() => t?.close());

  it("places new repositories by weight, keeps a placement, and resolves each path (a wiki follows its project) under its storage's root", async () => {
    const { defaultRoot, fastRoot } = await withTwoStorages(t, 100);
    // Weight 0 for default: everything goes to fast.
    const onlyFast = new RepositoryStorages(
      [
        { name: "default", root: defaultRoot, weight: 0 },
        { name: "fast", root: fastRoot, weight: 100 },
      ],
      t.deps.prisma,
    );
    expect(await onlyFast.place("@hashed/aa/bb/one.git", "project", 1)).toBe("fast");
    expect(onlyFast.resolve("@hashed/aa/bb/one.git")).toBe(path.join(fastRoot, "@hashed/aa/bb/one.git"));
    expect(onlyFast.resolve("@hashed/aa/bb/one.wiki.git")).toBe(path.join(fastRoot, "@hashed/aa/bb/one.wiki.git"));
    // Never recorded: default.
    expect(onlyFast.storageOf("@hashed/cc/dd/two.git")).toBe("default");
    expect(onlyFast.resolve("@hashed/cc/dd/two.git")).toBe(path.join(defaultRoot, "@hashed/cc/dd/two.git"));
    // A second instance reads the table: the placement is kept, not drawn again.
    const reloaded = new RepositoryStorages(
      [
        { name: "default", root: defaultRoot, weight: 100 },
        { name: "fast", root: fastRoot, weight: 0 },
      ],
      t.deps.prisma,
    );
    await reloaded.load();
    expect(reloaded.storageOf("@hashed/aa/bb/one.git")).toBe("fast");
    expect(await reloaded.place("@hashed/aa/bb/one.git", "project", 1)).toBe("fast");
    await reloaded.forget("@hashed/aa/bb/one.git");
    expect(reloaded.storageOf("@hashed/aa/bb/one.git")).toBe("default");
  });

  it("refuses writes with GitLab's temporary read-only message while marked", async () => {
    const storages = t.deps.storages;
    await storages.adopt("@hashed/ee/ff/three.git", "project", 3);
    await storages.setReadOnly("@hashed/ee/ff/three.git", true);
    expect(() => storages.assertWritable("@hashed/ee/ff/three.git")).toThrow(READ_ONLY_MESSAGE);
    expect(() => storages.assertWritable("@hashed/ee/ff/three.wiki.git")).toThrow(READ_ONLY_MESSAGE);
    await storages.setReadOnly("@hashed/ee/ff/three.git", false);
    expect(() => storages.assertWritable("@hashed/ee/ff/three.git")).not.toThrow();
  });

  it("checks disk paths as before (no escaping a storage root)", () => {
    expect(() => t.deps.storages.resolve("../x.git")).toThrow(/disk_path must be a relative path/);
  });
});
