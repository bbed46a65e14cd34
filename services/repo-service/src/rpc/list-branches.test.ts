import { execFileSync } from "node:child_process";
import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { gitIn, makeCommit, newProject, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { git } from "../git/git.ts";
import { listBranches } from "./list-branches.ts";

// Counts git processes, to show that a repeated listing spawns none.
vi.mock("../git/git.ts", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../git/git.ts")>();
  return { ...mod, git: vi.fn(mod.git) };
});

let t: TestContext;
let list: ReturnType<typeof listBranches>;
let repo: { diskPath: string; dir: string; projectId: number };
let base: string;
let tip: string;
let side: string;

const NAMES = ["main", "feature/Login", "feature/logout", "fix-1", "Release-2", "release/1.0", "zeta", "same-as-main", "side", "ünicode"];

beforeAll(async () => {
  t = await setUp("repo_list_branches");
  list = listBranches(t.deps);
  repo = await repositoryWith(t);
  base = makeCommit(repo.dir, { message: "Base\n" });
  tip = makeCommit(repo.dir, { message: "Tip\n\nSigned-off-by: Ada <ada@example.com>\n", parents: [base] });
  side = makeCommit(repo.dir, { message: "Side\n", parents: [base] });
  for (const name of NAMES) {
    const sha = name === "side" ? side : ["main", "same-as-main"].includes(name) ? tip : base;
    gitIn(repo.dir, "update-ref", `refs/heads/${name}`, sha);
  }
  gitIn(repo.dir, "pack-refs", "--all"); // names come from packed-refs …
  gitIn(repo.dir, "update-ref", "refs/heads/zeta", tip); // … and loose refs alike
});
afterAll(() => t?.close());

const request = (o: Partial<Parameters<typeof list>[0]> = {}) =>
  list({ projectId: repo.projectId, accessLevel: 30, diskPath: repo.diskPath, search: "", regex: "", page: 0, perPage: 0, defaultBranch: "main", ...o });
const names = async (o: Partial<Parameters<typeof list>[0]> = {}) => (await request(o)).branches.map((b) => b.name);

describe("ListBranches", () => {
  it("lists every branch sorted by name (byte order) with its head commit", async () => {
    const { branches, total } = await request();
    expect(total).toBe(NAMES.length);
    expect(branches.map((b) => b.name)).toEqual([
      "Release-2",
      "feature/Login",
      "feature/logout",
      "fix-1",
      "main",
      "release/1.0",
      "same-as-main",
      "side",
      "zeta",
      "ünicode",
    ]);
    const main = branches.find((b) => b.name === "main")!;
    expect(main).toMatchObject({ default: true, merged: false, commit: { id: tip, shortId: tip.slice(0, 8), title: "Tip" } });
    expect(main.commit?.trailers).toEqual({ "Signed-off-by": "Ada <ada@example.com>" });
    expect(branches.find((b) => b.name === "zeta")?.commit?.id).toBe(tip);
  });

  it("marks merged branches GitLab's way: reachable from the default head, but not that same commit", async () => {
    const { branches } = await request();
    const merged = Object.fromEntries(branches.map((b) => [b.name, b.merged]));
    expect(merged).toEqual({
      "Release-2": true,
      "feature/Login": true,
      "feature/logout": true,
      "fix-1": true,
      main: false,
      "release/1.0": true,
      "same-as-main": false,
      side: false,
      zeta: false,
      ünicode: true,
    });
    expect(branches.filter((b) => b.default).map((b) => b.name)).toEqual(["main"]);
  });

  it("starts no git process when the same page is listed again", async () => {
    await request();
    vi.mocked(git).mockClear();
    const again = await request();
    expect(again.branches.length).toBe(NAMES.length);
    expect(vi.mocked(git)).not.toHaveBeenCalled();
  });

  it("keeps merged right when branches move between listings (answers are cached per commit pair)", async () => {
    const other = await repositoryWith(t);
    const root = makeCommit(other.dir, { message: "Root\n" });
    const next = makeCommit(other.dir, { message: "Next\n", parents: [root] });
    const away = makeCommit(other.dir, { message: "Away\n", parents: [root] });
    gitIn(other.dir, "update-ref", "refs/heads/main", next);
    gitIn(other.dir, "update-ref", "refs/heads/topic", root);
    const merged = async () => {
      const { branches } = await list({
        projectId: other.projectId,
        accessLevel: 30,
        diskPath: other.diskPath,
        search: "",
        regex: "",
        page: 0,
        perPage: 0,
        defaultBranch: "main",
      });
      return Object.fromEntries(branches.map((b) => [b.name, b.merged]));
    };
    expect(await merged()).toEqual({ main: false, topic: true });
    expect(await merged()).toEqual({ main: false, topic: true }); // from the cache
    gitIn(other.dir, "update-ref", "refs/heads/topic", away);
    expect(await merged()).toEqual({ main: false, topic: false });
    gitIn(other.dir, "pack-refs", "--all"); // heads read from packed-refs alike
    const merge = makeCommit(other.dir, { message: "Merge\n", parents: [next, away] });
    gitIn(other.dir, "update-ref", "refs/heads/main", merge);
    expect(await merged()).toEqual({ main: false, topic: true });
  });

  it("takes HEAD's branch when no default branch is given, and marks nothing merged into a missing one", async () => {
    expect((await request({ defaultBranch: "" })).branches.filter((b) => b.default).map((b) => b.name)).toEqual(["main"]);
    const { branches } = await request({ defaultBranch: "gone" });
    expect(branches.some((b) => b.merged || b.default)).toBe(false);
    const bySide = await request({ defaultBranch: "side" });
    expect(bySide.branches.filter((b) => b.merged).map((b) => b.name)).toEqual([
      "Release-2",
      "feature/Login",
      "feature/logout",
      "fix-1",
      "release/1.0",
      "ünicode",
    ]);
  });

  it("filters by search: case-insensitive substring, ^prefix, suffix$, ^exact$, * wildcard", async () => {
    expect(await names({ search: "LOG" })).toEqual(["feature/Login", "feature/logout"]);
    expect(await names({ search: "^release" })).toEqual(["Release-2", "release/1.0"]);
    expect(await names({ search: "^rel*0" })).toEqual(["release/1.0"]);
    expect(await names({ search: "in$" })).toEqual(["feature/Login", "main", "same-as-main"]);
    expect(await names({ search: "^main$" })).toEqual(["main"]);
    expect(await names({ search: "a.n" })).toEqual([]); // literal, not a pattern
    expect(await names({ search: "nothing" })).toEqual([]);
    expect((await request({ search: "feature" })).total).toBe(2);
  });

  it("puts an exact match of a plain search first, as GitLab does", async () => {
    const other = await repositoryWith(t);
    const sha = makeCommit(other.dir);
    for (const name of ["a-dev", "dev", "dev-2", "Dev/x"]) gitIn(other.dir, "update-ref", `refs/heads/${name}`, sha);
    const search = async (s: string) =>
      (
        await list({ projectId: other.projectId, accessLevel: 30, diskPath: other.diskPath, search: s, regex: "", page: 0, perPage: 0, defaultBranch: "main" })
      ).branches.map((b) => b.name);
    expect(await search("DEV")).toEqual(["dev", "Dev/x", "a-dev", "dev-2"]);
    expect(await search("dev*")).toEqual(["Dev/x", "a-dev", "dev", "dev-2"]); // patterns keep name order
    expect(await search("^dev")).toEqual(["Dev/x", "dev", "dev-2"]);
  });

  it("filters by regex (case-sensitive)", async () => {
    expect(await names({ regex: "^feature/[A-Z]" })).toEqual(["feature/Login"]);
    expect(await names({ regex: "\\d$" })).toEqual(["Release-2", "fix-1", "release/1.0"]);
    expect((await request({ regex: "^r" })).total).toBe(1);
  });

  it("matches with RE2 (GitLab's UntrustedRegexp): its syntax, and linear time", async () => {
    expect(await names({ regex: "(?i)^RELEASE" })).toEqual(["Release-2", "release/1.0"]); // inline flags
    expect(await names({ regex: "^feature/(?P<what>log(in|out))$" })).toEqual(["feature/logout"]);
    // A backtracking engine would try 2^200 ways before giving up on the "!"; RE2 answers.
    gitIn(repo.dir, "update-ref", `refs/heads/${"a".repeat(200)}!`, base);
    try {
      expect(await names({ regex: "^(a+)+$" })).toEqual([]);
      expect(await names({ regex: "^(a+)+!$" })).toEqual([`${"a".repeat(200)}!`]);
    } finally {
      gitIn(repo.dir, "update-ref", "-d", `refs/heads/${"a".repeat(200)}!`);
    }
  });

  it("refuses an invalid regex, one RE2 does not support, and search together with regex", async () => {
    await expect(request({ regex: "feature/(" })).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, body: { message: "Regex is invalid" } });
    // JavaScript takes backreferences and lookahead; RE2 (linear time) has neither.
    await expect(request({ regex: "^(f)\\1" })).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, body: { message: "Regex is invalid" } });
    await expect(request({ regex: "^(?!main)" })).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, body: { message: "Regex is invalid" } });
    await expect(request({ search: "a", regex: "b" })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      body: { message: "Specify either search or regex, not both" },
    });
  });

  it("paginates: 20 per page by default, at most 100, with the total", async () => {
    const many = await repositoryWith(t);
    const sha = makeCommit(many.dir);
    const input = Array.from({ length: 130 }, (_, i) => `update refs/heads/b${String(i).padStart(3, "0")} ${sha}\n`).join("");
    execFileSync("git", ["--git-dir", many.dir, "update-ref", "--stdin"], { input }); // one transaction, as a push

    const page = (o: { page?: number; perPage?: number }) =>
      list({
        projectId: many.projectId,
        accessLevel: 30,
        diskPath: many.diskPath,
        search: "",
        regex: "",
        page: o.page ?? 0,
        perPage: o.perPage ?? 0,
        defaultBranch: "main",
      });

    const first = await page({});
    expect(first.total).toBe(130);
    expect(first.branches.map((b) => b.name)).toEqual(Array.from({ length: 20 }, (_, i) => `b${String(i).padStart(3, "0")}`));
    expect((await page({ page: 2, perPage: 50 })).branches.map((b) => b.name).slice(0, 2)).toEqual(["b050", "b051"]);
    expect((await page({ perPage: 500 })).branches).toHaveLength(100);
    expect((await page({ page: 3, perPage: 50 })).branches).toHaveLength(30);
    expect(await page({ page: 9, perPage: 50 })).toEqual({ branches: [], total: 130 });
  });

  it("answers an empty list for an empty repository and 404 for a missing one", async () => {
    const empty = await repositoryWith(t);
    expect(
      await list({ projectId: empty.projectId, accessLevel: 30, diskPath: empty.diskPath, search: "", regex: "", page: 1, perPage: 20, defaultBranch: "main" }),
    ).toEqual({
      branches: [],
      total: 0,
    });
    await expect(
      list({ projectId: 1, accessLevel: 30, diskPath: newProject().diskPath, search: "", regex: "", page: 1, perPage: 20, defaultBranch: "main" }),
    ).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Repository Not Found" } });
  });
});
