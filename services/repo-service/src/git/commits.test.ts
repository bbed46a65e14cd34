import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, makeCommit } from "../../test/support.ts";
import { commitTitle, mergedInto, readBranchCommit, readCommit, readRefCommits } from "./commits.ts";

let sandbox: string;
let dir: string;
let root: string;
let second: string;
let merge: string;

beforeAll(() => {
  sandbox = mkdtempSync(path.join(os.tmpdir(), "quarry-commits-"));
  dir = path.join(sandbox, "r.git");
  execFileSync("git", ["init", "--quiet", "--bare", dir]);
  root = makeCommit(dir, {
    message: "Initial commit\n",
    author: { name: "Ada Lovelace", email: "ada@example.com", date: "2026-11-21T10:00:00+00:00" },
  });
  second = makeCommit(dir, {
    message:
      "Fix it\n\nLonger body.\n\nSigned-off-by: Ada <ada@example.com>\nCo-authored-by: Bob <bob@example.com>\nSigned-off-by: Carol <carol@example.com>\n",
    parents: [root],
    author: { name: "Ada Lovelace", email: "ada@example.com", date: "2026-11-21T12:30:00+02:00" },
    committer: { name: "Grace Hopper", email: "grace@example.com", date: "2026-11-22T08:15:30-05:00" },
  });
  const side = makeCommit(dir, { message: "Side\n", parents: [root] });
  merge = makeCommit(dir, { message: "Merge branch 'side'", parents: [second, side] });
  gitIn(dir, "update-ref", "refs/heads/main", merge);
  gitIn(dir, "update-ref", "refs/heads/fix", second);
  gitIn(dir, "update-ref", "refs/heads/side", side);
  gitIn(dir, "update-ref", "refs/heads/fix-more", second);
  gitIn(dir, "tag", "v1", root);
  // A branch pointing at a tree (git refuses to write one; the file can be) is left out.
  writeFileSync(path.join(dir, "refs/heads/tree"), `${gitIn(dir, "rev-parse", `${root}^{tree}`)}\n`);
});
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

describe("readRefCommits", () => {
  it("reads every branch's commit with its fields, dates with offsets and trailers", async () => {
    const commits = await readRefCommits(dir, ["refs/heads/"]);
    expect([...commits.keys()].sort()).toEqual(["refs/heads/fix", "refs/heads/fix-more", "refs/heads/main", "refs/heads/side"]);
    expect(commits.get("refs/heads/fix")).toEqual({
      id: second,
      shortId: second.slice(0, 8),
      title: "Fix it",
      message:
        "Fix it\n\nLonger body.\n\nSigned-off-by: Ada <ada@example.com>\nCo-authored-by: Bob <bob@example.com>\nSigned-off-by: Carol <carol@example.com>\n",
      authorName: "Ada Lovelace",
      authorEmail: "ada@example.com",
      authoredDate: "2026-11-21T12:30:00+02:00",
      committerName: "Grace Hopper",
      committerEmail: "grace@example.com",
      committedDate: "2026-11-22T08:15:30-05:00",
      parentIds: [root],
      trailers: { "Signed-off-by": "Carol <carol@example.com>", "Co-authored-by": "Bob <bob@example.com>" },
      extendedTrailers: {
        "Signed-off-by": { values: ["Ada <ada@example.com>", "Carol <carol@example.com>"] },
        "Co-authored-by": { values: ["Bob <bob@example.com>"] },
      },
    });
    const main = commits.get("refs/heads/main")!;
    expect(main.parentIds).toEqual([second, expect.stringMatching(/^[0-9a-f]{40}$/)]);
    expect(main.message).toBe("Merge branch 'side'"); // stored without a final newline
    expect(main.trailers).toEqual({});
  });

  it("reads only the named refs (exact names) and nothing for no patterns", async () => {
    const commits = await readRefCommits(dir, ["refs/heads/fix", "refs/tags/v1"]);
    expect([...commits.keys()].sort()).toEqual(["refs/heads/fix", "refs/tags/v1"]);
    expect(await readRefCommits(dir, [])).toEqual(new Map());
    expect((await readBranchCommit(dir, "fix"))?.id).toBe(second);
    expect(await readBranchCommit(dir, "fi")).toBeNull();
    expect(await readBranchCommit(dir, "tree")).toBeNull();
  });

  it("shows UTC as +00:00", async () => {
    expect((await readRefCommits(dir, ["refs/tags/v1"])).get("refs/tags/v1")).toMatchObject({
      authoredDate: "2026-11-21T10:00:00+00:00",
      committedDate: "2026-11-21T10:00:00+00:00",
      parentIds: [],
    });
  });
});

describe("readCommit", () => {
  it("reads a single commit exactly as the ref reader does", async () => {
    const all = await readRefCommits(dir, ["refs/heads/"]);
    expect(await readCommit(dir, second)).toEqual(all.get("refs/heads/fix"));
    expect(await readCommit(dir, merge)).toEqual(all.get("refs/heads/main"));
  });

  it("takes full shas only", async () => {
    await expect(readCommit(dir, "main")).rejects.toThrow(/not a full commit sha/);
    await expect(readCommit(dir, "0".repeat(40))).rejects.toThrow();
  });
});

describe("mergedInto", () => {
  it("lists the heads reachable from the target, with their shas", async () => {
    const merged = await mergedInto(dir, "main", ["refs/heads/"]);
    expect(Object.fromEntries(merged)).toEqual({
      "refs/heads/fix": second,
      "refs/heads/fix-more": second,
      "refs/heads/main": merge,
      "refs/heads/side": expect.any(String),
    });
    expect([...(await mergedInto(dir, "side", ["refs/heads/"])).keys()]).toEqual(["refs/heads/side"]);
  });

  it("is empty for a missing target", async () => {
    expect(await mergedInto(dir, "missing", ["refs/heads/"])).toEqual(new Map());
  });
});

it("commitTitle is GitLab's: the first line, long ones cut at a space, blank ones replaced", () => {
  expect(commitTitle("One\nTwo")).toBe("One");
  expect(commitTitle("One\r\nTwo")).toBe("One");
  expect(commitTitle("")).toBe("No commit message");
  expect(commitTitle(" \n\n")).toBe("No commit message");
  const words = Array.from({ length: 20 }, (_, i) => `word${String(i).padStart(2, "0")}`).join(" "); // 139 characters
  expect(commitTitle(`${words}\n\nbody`)).toBe(`${words.slice(0, 76)}...`); // "word00 … word10" (76) + "..."
  expect(commitTitle("x".repeat(99))).toBe("x".repeat(99));
  expect(commitTitle("x".repeat(100))).toBe(`${"x".repeat(78)}...`);
  expect(commitTitle("é".repeat(99))).toBe("é".repeat(99));
});
