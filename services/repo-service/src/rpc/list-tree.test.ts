import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitIn, makeCommit, makeTree, newProject, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { encodePageToken, listTree, treePath } from "./list-tree.ts";

let t: TestContext;
let list: ReturnType<typeof listTree>;
let repo: { diskPath: string; dir: string };
let empty: { diskPath: string; dir: string };
let sub: string;
const oid = (rev: string) => gitIn(repo.dir, "rev-parse", rev);

beforeAll(async () => {
  t = await setUp("repo_list_tree");
  list = listTree(t.deps);
  repo = await repositoryWith(t);
  empty = await repositoryWith(t);
  sub = makeCommit(repo.dir, { message: "Submodule target\n" });
  const tree = makeTree(repo.dir, {
    "README.md": "# readme\n",
    "a.txt": "a\n",
    "run.sh": { content: "#!/bin/sh\n", mode: "100755" },
    link: { content: "a.txt", mode: "120000" },
    "vendor/lib": { submodule: sub },
    "files/html/index.html": "<html>\n",
    "files/ruby/x.rb": "x\n",
    "files/z.txt": "z\n",
    "bar/b.txt": "b\n",
  });
  const head = makeCommit(repo.dir, { message: "Tree\n", tree });
  gitIn(repo.dir, "update-ref", "refs/heads/main", head);
  gitIn(repo.dir, "tag", "v1", head);
});
afterAll(() => t?.close());

const req = (o: Partial<Parameters<typeof list>[0]> = {}) => ({
  diskPath: repo.diskPath,
  ref: "main",
  path: "",
  recursive: false,
  page: 0,
  perPage: 0,
  keyset: false,
  pageToken: "",
  unpaginated: false,
  ...o,
});
const names = (r: { entries: { path: string }[] }) => r.entries.map((e) => e.path);

describe("ListTree", () => {
  it("lists the root: directories first, then files, then submodules, with GitLab's fields and modes", async () => {
    const r = await list(req());
    expect(names(r)).toEqual(["bar", "files", "vendor", "README.md", "a.txt", "link", "run.sh"]);
    expect(r.total).toBe(7);
    expect(r.entries[0]).toEqual({ id: oid("main:bar"), name: "bar", type: "tree", path: "bar", mode: "040000" });
    expect(r.entries.find((e) => e.name === "run.sh")).toMatchObject({ type: "blob", mode: "100755", id: oid("main:run.sh") });
    expect(r.entries.find((e) => e.name === "link")).toMatchObject({ type: "blob", mode: "120000" });
    expect(r.entries.find((e) => e.name === "a.txt")).toMatchObject({ mode: "100644" });
    // A tag and a sha name the same tree.
    expect(await list(req({ ref: "v1" }))).toEqual(r);
    expect(await list(req({ ref: oid("main") }))).toEqual(r);
  });

  it("lists a subdirectory (with or without slashes) and submodules as commits", async () => {
    expect(names(await list(req({ path: "files" })))).toEqual(["files/html", "files/ruby", "files/z.txt"]);
    expect(names(await list(req({ path: "/files/" })))).toEqual(["files/html", "files/ruby", "files/z.txt"]);
    expect((await list(req({ path: "vendor" }))).entries).toEqual([{ id: sub, name: "lib", type: "commit", path: "vendor/lib", mode: "160000" }]);
    expect(names(await list(req({ path: "." })))).toHaveLength(7);
  });

  it("lists recursively: every directory (depth first), then every file, then submodules", async () => {
    const r = await list(req({ recursive: true, unpaginated: true }));
    expect(names(r)).toEqual([
      "bar",
      "files",
      "files/html",
      "files/ruby",
      "vendor",
      "README.md",
      "a.txt",
      "bar/b.txt",
      "files/html/index.html",
      "files/ruby/x.rb",
      "files/z.txt",
      "link",
      "run.sh",
      "vendor/lib",
    ]);
    expect(names(await list(req({ recursive: true, path: "files", unpaginated: true })))).toEqual([
      "files/html",
      "files/ruby",
      "files/html/index.html",
      "files/ruby/x.rb",
      "files/z.txt",
    ]);
  });

  it("pages by offset with a total", async () => {
    const r = await list(req({ recursive: true, page: 2, perPage: 5 }));
    expect(r.total).toBe(14);
    expect(names(r)).toEqual(["README.md", "a.txt", "bar/b.txt", "files/html/index.html", "files/ruby/x.rb"]);
    expect((await list(req({ recursive: true, page: 4, perPage: 5 }))).entries).toEqual([]);
  });

  it("pages by keyset with path tokens, and accepts an object id as the token", async () => {
    const first = await list(req({ keyset: true, perPage: 3 }));
    expect(names(first)).toEqual(["bar", "files", "vendor"]);
    expect(first.nextPageToken).toBe(encodePageToken("vendor"));
    expect(JSON.parse(Buffer.from(first.nextPageToken, "base64").toString())).toEqual({ file_name: "vendor" });
    const second = await list(req({ keyset: true, perPage: 3, pageToken: first.nextPageToken }));
    expect(names(second)).toEqual(["README.md", "a.txt", "link"]);
    const last = await list(req({ keyset: true, perPage: 3, pageToken: second.nextPageToken }));
    expect(names(last)).toEqual(["run.sh"]);
    expect(last.nextPageToken).toBe("");
    const byOid = await list(req({ keyset: true, perPage: 3, pageToken: oid("main:bar") }));
    expect(names(byOid)).toEqual(["files", "vendor", "README.md"]);
    await expect(list(req({ keyset: true, pageToken: "nope" }))).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      body: { error: "page_token does not have a valid value" },
    });
  });

  it("answers 404 Tree Not Found for an unknown ref and in an empty repository", async () => {
    for (const r of [req({ ref: "nope" }), req({ ref: "-main" }), req({ ref: "main:files" }), req({ diskPath: empty.diskPath })]) {
      await expect(list(r)).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 Tree Not Found" } });
    }
  });

  it("answers 404 invalid revision or path for an unknown path, and nothing for a file's path", async () => {
    for (const path of ["bogus", "files/nope", "../etc", "./files", "files/../bar", "a//b"]) {
      await expect(list(req({ path }))).rejects.toMatchObject({ code: status.NOT_FOUND, body: { message: "404 invalid revision or path Not Found" } });
      await expect(list(req({ path, recursive: true }))).rejects.toMatchObject({ body: { message: "404 invalid revision or path Not Found" } });
    }
    expect((await list(req({ path: "a.txt" }))).entries).toEqual([]);
    expect((await list(req({ path: "a.txt", recursive: true }))).entries).toEqual([]);
    // The cat-file processes survived the odd paths.
    expect(names(await list(req()))).toHaveLength(7);
  });

  it("answers 404 for a missing repository", async () => {
    await expect(list(req({ diskPath: newProject().diskPath }))).rejects.toMatchObject({ body: { message: "404 Repository Not Found" } });
  });

  it("normalises paths", () => {
    expect(treePath("")).toBe("");
    expect(treePath("/")).toBe("");
    expect(treePath("a/b/")).toBe("a/b");
    expect(treePath("a/./b")).toBeNull();
  });
});
