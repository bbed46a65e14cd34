import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { annotatedTag, gitIn, makeCommit, newProject, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { readCommit } from "../git/commits.ts";
import { listTags } from "./list-tags.ts";
import { git } from "../git/git.ts";

// Counts git processes, to show that repeated reads start none.
vi.mock("../git/git.ts", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../git/git.ts")>();
  return { ...mod, git: vi.fn(mod.git) };
});

let t: TestContext;
let list: ReturnType<typeof listTags>;
let repo: { diskPath: string; dir: string };
let c1: string;
let c2: string;
let c3: string;
let annotated: string;

const at = (date: string) => ({ name: "Ada Lovelace", email: "ada@example.com", date });

beforeAll(async () => {
  t = await setUp("repo_list_tags");
  list = listTags(t.deps);
  repo = await repositoryWith(t);
  c1 = makeCommit(repo.dir, { message: "One\n", author: at("2026-01-01T00:00:00+00:00") });
  c2 = makeCommit(repo.dir, { message: "Two\n", parents: [c1], author: at("2026-02-01T00:00:00+00:00") });
  c3 = makeCommit(repo.dir, { message: "Three\n", parents: [c2], author: at("2026-03-01T00:00:00+00:00") });
  gitIn(repo.dir, "update-ref", "refs/heads/main", c3);
  gitIn(repo.dir, "update-ref", "refs/tags/v1.9.0", c2);
  annotated = annotatedTag(repo.dir, "v1.10.0", c1, "Release 1.10\n\nNotes.", "1775001600 +0200"); // 2026-04-01
  gitIn(repo.dir, "update-ref", "refs/tags/v1.10.0-rc1", c3);
  annotatedTag(repo.dir, "release/2", c1, "Two", "1764547200 +0000"); // 2025-12-01
  gitIn(repo.dir, "update-ref", "refs/tags/alpha", c1);
});
afterAll(() => t?.close());

const request = (o: Partial<Parameters<typeof list>[0]> = {}) =>
  list({ diskPath: repo.diskPath, search: "", orderBy: "", sort: "", page: 0, perPage: 0, ...o });
const names = async (o: Partial<Parameters<typeof list>[0]> = {}) => (await request(o)).tags.map((x) => x.name);

describe("ListTags", () => {
  it("orders by creator date, newest first, by default: tagger date of annotated tags, commit date of lightweight ones", async () => {
    const { tags, total } = await request();
    expect(total).toBe(5);
    expect(tags.map((x) => x.name)).toEqual(["v1.10.0", "v1.10.0-rc1", "v1.9.0", "alpha", "release/2"]);
    expect(await names({ orderBy: "updated", sort: "asc" })).toEqual(["release/2", "alpha", "v1.9.0", "v1.10.0-rc1", "v1.10.0"]);
  });

  it("shows annotated tags with their object, message and tagger date, lightweight ones with the commit only", async () => {
    const { tags } = await request();
    expect(tags[0]).toEqual({
      name: "v1.10.0",
      annotated: true,
      message: "Release 1.10\n\nNotes.",
      target: annotated,
      createdAt: "2026-04-01T02:00:00+02:00",
      commit: await readCommit(repo.dir, c1),
    });
    expect(tags[2]).toEqual({ name: "v1.9.0", annotated: false, message: "", target: c2, createdAt: "", commit: await readCommit(repo.dir, c2) });
  });

  it("orders by name (bytes) and by version (numbers numerically, pre-releases first)", async () => {
    expect(await names({ orderBy: "name", sort: "asc" })).toEqual(["alpha", "release/2", "v1.10.0", "v1.10.0-rc1", "v1.9.0"]);
    expect(await names({ orderBy: "name" })).toEqual(["v1.9.0", "v1.10.0-rc1", "v1.10.0", "release/2", "alpha"]);
    expect(await names({ orderBy: "version", sort: "asc" })).toEqual(["alpha", "release/2", "v1.9.0", "v1.10.0-rc1", "v1.10.0"]);
    expect(await names({ orderBy: "version", sort: "desc" })).toEqual(["v1.10.0", "v1.10.0-rc1", "v1.9.0", "release/2", "alpha"]);
  });

  it("searches by substring (exact match first), ^prefix and suffix$", async () => {
    expect(await names({ search: "V1.10", orderBy: "name", sort: "asc" })).toEqual(["v1.10.0", "v1.10.0-rc1"]);
    expect(await names({ search: "v1.10.0", orderBy: "name", sort: "desc" })).toEqual(["v1.10.0", "v1.10.0-rc1"]);
    expect(await names({ search: "^re" })).toEqual(["release/2"]);
    expect(await names({ search: ".0$", orderBy: "name", sort: "asc" })).toEqual(["v1.10.0", "v1.9.0"]);
    expect((await request({ search: "nothing" })).total).toBe(0);
  });

  it("pages through the ordered, filtered list", async () => {
    const page = await request({ orderBy: "name", sort: "asc", page: 2, perPage: 2 });
    expect(page.total).toBe(5);
    expect(page.tags.map((x) => x.name)).toEqual(["v1.10.0", "v1.10.0-rc1"]);
    expect((await request({ page: 9, perPage: 2 })).tags).toEqual([]);
  });

  it("lists a tag of a tree without a commit", async () => {
    gitIn(repo.dir, "update-ref", "refs/tags/tree-tag", `${c1}^{tree}`);
    try {
      const tag = (await request({ search: "tree-tag" })).tags[0];
      expect(tag).toMatchObject({ name: "tree-tag", annotated: false, commit: null });
    } finally {
      gitIn(repo.dir, "update-ref", "-d", "refs/tags/tree-tag");
    }
  });

  it("refuses unknown orderings and answers 404 for a missing repository", async () => {
    await expect(request({ orderBy: "size" })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      body: { error: "order_by does not have a valid value" },
    });
    await expect(request({ sort: "up" })).rejects.toMatchObject({ body: { error: "sort does not have a valid value" } });
    await expect(list({ diskPath: newProject().diskPath, search: "", orderBy: "", sort: "", page: 0, perPage: 0 })).rejects.toMatchObject({
      code: status.NOT_FOUND,
      body: { message: "404 Repository Not Found" },
    });
  });

  it("lists the tags again from memory: no git process, the same answer", async () => {
    const first = await request({ orderBy: "version" });
    vi.mocked(git).mockClear();
    expect(await request({ orderBy: "version" })).toEqual(first);
    expect(vi.mocked(git)).not.toHaveBeenCalled();
  });
});
