import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, makeCommit, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { listContributors } from "./list-contributors.ts";

let t: TestContext;
let list: ReturnType<typeof listContributors>;
let repo: { diskPath: string; dir: string };

const person = (name: string, email: string, day: number) => ({ name, email, date: `2026-01-${String(day).padStart(2, "0")}T10:00:00+00:00` });

beforeAll(async () => {
  t = await setUp("repo_contributors");
  list = listContributors(t.deps);
  repo = await repositoryWith(t);
  let head = makeCommit(repo.dir, { message: "1\n", author: person("Zed", "zed@example.com", 1) });
  head = makeCommit(repo.dir, { message: "2\n", parents: [head], author: person("ada", "ada@example.com", 2) });
  head = makeCommit(repo.dir, { message: "3\n", parents: [head], author: person("Old Bob", "bob@example.com", 3) });
  const side = makeCommit(repo.dir, { message: "side\n", parents: [head], author: person("Bob", "bob@example.com", 4) });
  head = makeCommit(repo.dir, { message: "4\n", parents: [head], author: person("Zed", "zed@example.com", 5) });
  // A merge commit is not counted.
  head = makeCommit(repo.dir, { message: "Merge\n", parents: [head, side], author: person("Merger", "merger@example.com", 6) });
  gitIn(repo.dir, "update-ref", "refs/heads/main", head);
  gitIn(repo.dir, "update-ref", "refs/heads/early", makeCommit(repo.dir, { message: "x\n", author: person("Early", "early@example.com", 1) }));
});
afterAll(() => t?.close());

const req = (o: Partial<Parameters<typeof list>[0]> = {}) => ({ diskPath: repo.diskPath, ref: "main", orderBy: "", sort: "", page: 0, perPage: 0, ...o });
const summary = (r: { contributors: { name?: string; email?: string; commits?: number }[] }) => r.contributors.map((c) => `${c.name}<${c.email}>${c.commits}`);

describe("ListContributors", () => {
  it("groups non-merge commits by e-mail, named after the newest commit, fewest commits first by default", async () => {
    const r = await list(req());
    expect(r.total).toBe(3);
    expect(summary(r)).toEqual(["ada<ada@example.com>1", "Zed<zed@example.com>2", "Bob<bob@example.com>2"]);
    expect(r.contributors[0]).toEqual({ name: "ada", email: "ada@example.com", commits: 1, additions: 0, deletions: 0 });
  });

  it("orders by name or email (case-insensitively) and commits, ascending or descending", async () => {
    expect(summary(await list(req({ orderBy: "name" })))).toEqual(["ada<ada@example.com>1", "Bob<bob@example.com>2", "Zed<zed@example.com>2"]);
    expect(summary(await list(req({ orderBy: "name", sort: "desc" })))).toEqual(["Zed<zed@example.com>2", "Bob<bob@example.com>2", "ada<ada@example.com>1"]);
    expect(summary(await list(req({ orderBy: "email", sort: "desc" })))[0]).toBe("Zed<zed@example.com>2");
    expect(summary(await list(req({ orderBy: "commits", sort: "desc" })))).toEqual(["Zed<zed@example.com>2", "Bob<bob@example.com>2", "ada<ada@example.com>1"]);
  });

  it("reads another ref and pages", async () => {
    expect(summary(await list(req({ ref: "early" })))).toEqual(["Early<early@example.com>1"]);
    const page = await list(req({ page: 2, perPage: 2 }));
    expect(page.total).toBe(3);
    expect(summary(page)).toEqual(["Bob<bob@example.com>2"]);
  });

  it("answers 404 Not Found for an unknown ref", async () => {
    await expect(list(req({ ref: "nope" }))).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Not Found" } });
  });
});
