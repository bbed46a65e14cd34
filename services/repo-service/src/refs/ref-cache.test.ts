import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { annotatedTag, makeCommit, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { git } from "../git/git.ts";
import { refsChanged } from "../git/ref-writes.ts";
import { cachedSortedTags, cachedTag, cachedTags, refSnapshot, snapshotBranchHead } from "./ref-cache.ts";

// Counts git processes, to show that warm reads start none.
vi.mock("../git/git.ts", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../git/git.ts")>();
  return { ...mod, git: vi.fn(mod.git) };
});

let t: TestContext;
let repo: { diskPath: string; dir: string };
let c1: string;
let c2: string;

/** A ref write the service is not told about (as if another program wrote it). */
const unreported = (...args: string[]) => execFileSync("git", ["--git-dir", repo.dir, ...args]);

beforeAll(async () => {
  t = await setUp("repo_ref_cache");
  repo = await repositoryWith(t);
  c1 = makeCommit(repo.dir, { message: "One\n" });
  c2 = makeCommit(repo.dir, { message: "Two\n", parents: [c1] });
  await git(["update-ref", "refs/heads/main", c1], { gitDir: repo.dir });
});
afterAll(() => t?.close());

describe("refs kept in memory", () => {
  it("serves HEAD and the branch heads from memory until the refs change", async () => {
    const first = await refSnapshot(repo.dir);
    expect(first.head).toBe("main");
    expect(snapshotBranchHead(first, "main")).toBe(c1);
    // Written behind the service's back: not read again (no ref file is opened on a warm read) …
    unreported("update-ref", "refs/heads/main", c2);
    expect(await refSnapshot(repo.dir)).toBe(first);
    // … until a change is reported.
    refsChanged(repo.dir);
    expect(snapshotBranchHead(await refSnapshot(repo.dir), "main")).toBe(c2);
  });

  it("reads the refs again after a ref write through git(), but not after a read", async () => {
    const before = await refSnapshot(repo.dir);
    await git(["for-each-ref", "refs/heads/"], { gitDir: repo.dir });
    expect(await refSnapshot(repo.dir)).toBe(before);
    await git(["update-ref", "refs/heads/topic", c1], { gitDir: repo.dir });
    expect(snapshotBranchHead(await refSnapshot(repo.dir), "topic")).toBe(c1);
    await git(["symbolic-ref", "HEAD", "refs/heads/topic"], { gitDir: repo.dir });
    expect((await refSnapshot(repo.dir)).head).toBe("topic");
    await git(["symbolic-ref", "HEAD", "refs/heads/main"], { gitDir: repo.dir });
    expect((await refSnapshot(repo.dir)).head).toBe("main");
  });

  it("reads the refs again after a compare-and-swap of the update-ref session, failed ones included", async () => {
    await refSnapshot(repo.dir);
    await t.deps.gitSessions.updateRef(repo.dir, "refs/heads/session", c2, "0".repeat(40));
    expect(snapshotBranchHead(await refSnapshot(repo.dir), "session")).toBe(c2);
    // A failed swap (wrong expectation) while another program moved the ref: the next read sees git's state.
    unreported("update-ref", "refs/heads/session", c1);
    await expect(t.deps.gitSessions.updateRef(repo.dir, "refs/heads/session", c2, c2)).rejects.toThrow();
    expect(snapshotBranchHead(await refSnapshot(repo.dir), "session")).toBe(c1);
  });

  it("reads the refs again after the repository's processes are forgotten (deleted or moved)", async () => {
    await refSnapshot(repo.dir);
    unreported("update-ref", "refs/heads/forgotten", c1);
    t.deps.gitSessions.forget(repo.dir);
    expect(snapshotBranchHead(await refSnapshot(repo.dir), "forgotten")).toBe(c1);
  });

  it("reads again after a change reported while a read was under way", async () => {
    const reading = refSnapshot(`${repo.dir}/`); // the same repository, another spelling
    unreported("update-ref", "refs/heads/late", c2);
    refsChanged(repo.dir);
    await reading;
    expect(snapshotBranchHead(await refSnapshot(repo.dir), "late")).toBe(c2);
  });

  it("reads the tags once per generation (one git for-each-ref), with each ordering kept", async () => {
    const tagger = annotatedTag(repo.dir, "v1.0", c1, "Release\n", "1775001600 +0200");
    unreported("update-ref", "refs/tags/v0.9", c1);
    refsChanged(repo.dir);
    vi.mocked(git).mockClear();
    const tags = await cachedTags(repo.dir);
    expect(tags.map((x) => x.tag.name)).toEqual(["v0.9", "v1.0"]);
    expect((await cachedTag(repo.dir, "v1.0"))?.tag).toMatchObject({ annotated: true, target: tagger, message: "Release\n" });
    expect((await cachedTag(repo.dir, "v1.0"))?.tag.commit?.id).toBe(c1);
    const byName = await cachedSortedTags(repo.dir, "name", "desc");
    expect(byName.map((x) => x.tag.name)).toEqual(["v1.0", "v0.9"]);
    expect(await cachedSortedTags(repo.dir, "name", "desc")).toBe(byName);
    expect(await cachedTag(repo.dir, "v2")).toBeNull();
    expect(vi.mocked(git)).toHaveBeenCalledTimes(1);

    await git(["update-ref", "-d", "refs/tags/v0.9"], { gitDir: repo.dir });
    expect((await cachedTags(repo.dir)).map((x) => x.tag.name)).toEqual(["v1.0"]);
    expect((await cachedSortedTags(repo.dir, "name", "desc")).map((x) => x.tag.name)).toEqual(["v1.0"]);
  });
});
