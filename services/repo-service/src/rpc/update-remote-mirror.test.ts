import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import type { UpdateRemoteMirrorRequest__Output } from "@quarry/proto/types/repo/v1/UpdateRemoteMirrorRequest";
import { refsIn, startGitHttpRemote, type GitHttpRemote } from "@quarry/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { annotatedTag, gitIn, makeCommit, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { scrubSecrets, updateRemoteMirror } from "./update-remote-mirror.ts";

const USER = "mirror-bot";
const PASSWORD = "s3cret-Pa55word";

let t: TestContext;
let remote: GitHttpRemote;
let update: ReturnType<typeof updateRemoteMirror>;
let n = 0;

beforeAll(async () => {
  t = await setUp("repo_remote_mirror");
  remote = await startGitHttpRemote({ username: USER, password: PASSWORD });
  update = updateRemoteMirror(t.deps);
});
afterAll(async () => {
  await remote?.close();
  await t?.close();
});

/** A project repository with main (2 commits), feature, release/1.0, an annotated and a lightweight tag; and an empty remote. */
async function scenario() {
  const repo = await repositoryWith(t);
  const base = makeCommit(repo.dir, { message: "Base\n" });
  const tip = makeCommit(repo.dir, { message: "Tip\n", parents: [base] });
  const side = makeCommit(repo.dir, { message: "Side\n", parents: [base] });
  gitIn(repo.dir, "update-ref", "refs/heads/main", tip);
  gitIn(repo.dir, "update-ref", "refs/heads/feature", side);
  gitIn(repo.dir, "update-ref", "refs/heads/release/1.0", base);
  const annotated = annotatedTag(repo.dir, "v1.0", base, "Release 1.0\n", "1700000000 +0000");
  gitIn(repo.dir, "update-ref", "refs/tags/light", tip);
  const name = `mirror-${++n}`;
  const url = remote.createRepository(name);
  const request = (o: Partial<UpdateRemoteMirrorRequest__Output> = {}): UpdateRemoteMirrorRequest__Output => ({
    diskPath: repo.diskPath,
    projectId: repo.projectId,
    url,
    credentials: { httpUsername: USER, httpPassword: PASSWORD, sshPrivateKey: "", sshUsername: "" },
    onlyProtectedBranches: false,
    branchRegex: "",
    keepDivergentRefs: false,
    resolvedAddresses: [],
    knownHosts: "",
    timeoutMs: 0,
    ...o,
  });
  return { repo, base, tip, side, annotated, name, url, request, remoteDir: remote.repositoryPath(name) };
}

describe("UpdateRemoteMirror", () => {
  it("pushes every branch and tag, with the credentials in an Authorization header only", async () => {
    const s = await scenario();
    const seen = remote.authorizations.length;
    const res = await update(s.request());
    expect(res.error).toBe("");
    expect(res.divergentRefs).toEqual([]);
    expect(remote.refs(s.name)).toEqual(refsIn(s.repo.dir));
    expect(remote.refs(s.name)["refs/tags/v1.0"]).toBe(s.annotated);
    // The default branch goes first; everything was new.
    expect(res.updatedRefs[0]).toBe("refs/heads/main");
    expect([...res.updatedRefs].sort()).toEqual(Object.keys(refsIn(s.repo.dir)).sort());
    expect(remote.authorizations.slice(seen).every((a) => a === "Basic " + Buffer.from(`${USER}:${PASSWORD}`).toString("base64"))).toBe(true);
    // Nothing of the credentials stays in the repository's configuration.
    expect(gitIn(s.repo.dir, "config", "--list")).not.toContain(PASSWORD);

    // A second run has nothing to do.
    const again = await update(s.request());
    expect(again).toMatchObject({ error: "", updatedRefs: [], deletedRefs: [], divergentRefs: [] });
  });

  it("pushes only protected branches (and all tags) and leaves other remote branches alone", async () => {
    const s = await scenario();
    gitIn(s.remoteDir, "fetch", "--quiet", s.repo.dir, `${s.side}:refs/heads/theirs`);
    await t.deps.prisma.protectedBranch.create({ data: { projectId: s.repo.projectId, name: "release/*" } });
    await t.deps.prisma.protectedBranch.create({ data: { projectId: s.repo.projectId, name: "main" } });
    const res = await update(s.request({ onlyProtectedBranches: true }));
    expect(res.error).toBe("");
    expect(Object.keys(remote.refs(s.name)).sort()).toEqual([
      "refs/heads/main",
      "refs/heads/release/1.0",
      "refs/heads/theirs",
      "refs/tags/light",
      "refs/tags/v1.0",
    ]);
    expect(res.deletedRefs).toEqual([]);
  });

  it("pushes only branches matching the regex (and all tags)", async () => {
    const s = await scenario();
    const res = await update(s.request({ branchRegex: "^(feat|rel)" }));
    expect(res.error).toBe("");
    expect(Object.keys(remote.refs(s.name)).sort()).toEqual(["refs/heads/feature", "refs/heads/release/1.0", "refs/tags/light", "refs/tags/v1.0"]);
  });

  it("matches the regex with RE2: inline flags work, backreferences are refused", async () => {
    const s = await scenario();
    const res = await update(s.request({ branchRegex: "(?i)^(FEAT|REL)" }));
    expect(res.error).toBe("");
    expect(Object.keys(remote.refs(s.name)).sort()).toEqual(["refs/heads/feature", "refs/heads/release/1.0", "refs/tags/light", "refs/tags/v1.0"]);
    await expect(update(s.request({ branchRegex: "^(f)\\1" }))).rejects.toMatchObject({ code: 3 });
  });

  it("keeps diverged remote refs and reports them when keep_divergent_refs, overwrites them otherwise", async () => {
    const s = await scenario();
    expect((await update(s.request())).error).toBe("");
    // Someone pushes straight to the mirror: main gets a commit we do not have; a branch we never had appears.
    const theirs = makeCommit(s.remoteDir, { message: "Theirs\n", parents: [s.tip] });
    gitIn(s.remoteDir, "update-ref", "refs/heads/main", theirs);
    gitIn(s.remoteDir, "update-ref", "refs/heads/extra", theirs);
    // And here feature moves forward (fast-forward on the remote) and release/1.0 is rewritten.
    const next = makeCommit(s.repo.dir, { message: "Next\n", parents: [s.side] });
    gitIn(s.repo.dir, "update-ref", "refs/heads/feature", next);

    const kept = await update(s.request({ keepDivergentRefs: true }));
    expect(kept.error).toBe("");
    expect(kept.divergentRefs).toEqual(["refs/heads/main"]);
    expect(kept.updatedRefs).toEqual(["refs/heads/feature"]);
    expect(kept.deletedRefs).toEqual([]);
    expect(remote.refs(s.name)["refs/heads/main"]).toBe(theirs);
    expect(remote.refs(s.name)["refs/heads/extra"]).toBe(theirs);
    expect(remote.refs(s.name)["refs/heads/feature"]).toBe(next);

    const forced = await update(s.request());
    expect(forced.error).toBe("");
    expect(forced.divergentRefs).toEqual([]);
    expect(forced.deletedRefs).toEqual(["refs/heads/extra"]);
    expect(remote.refs(s.name)).toEqual(refsIn(s.repo.dir));
  });

  it("deletes branches and tags deleted here, but not with keep_divergent_refs", async () => {
    const s = await scenario();
    await update(s.request());
    gitIn(s.repo.dir, "update-ref", "-d", "refs/heads/feature");
    gitIn(s.repo.dir, "update-ref", "-d", "refs/tags/light");
    expect((await update(s.request({ keepDivergentRefs: true }))).deletedRefs).toEqual([]);
    expect(remote.refs(s.name)["refs/heads/feature"]).toBe(s.side);
    const res = await update(s.request());
    expect(res.deletedRefs).toEqual(["refs/heads/feature", "refs/tags/light"]);
    expect(remote.refs(s.name)).toEqual(refsIn(s.repo.dir));
  });

  it("reports a refused login without leaking the password", async () => {
    const s = await scenario();
    const wrong = "wr0ng-Pa55word";
    const res = await update(s.request({ credentials: { httpUsername: USER, httpPassword: wrong, sshPrivateKey: "", sshUsername: "" } }));
    expect(res.error).toMatch(/Authentication failed|401/);
    expect(res.error).not.toContain(wrong);
    expect(res.error).not.toContain(Buffer.from(`${USER}:${wrong}`).toString("base64"));
    expect(remote.refs(s.name)).toEqual({});
  });

  it("reports an unreachable remote as an error", async () => {
    const s = await scenario();
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const res = await update(s.request({ url: `http://127.0.0.1:${port}/nowhere.git` }));
    expect(res.error).toMatch(/unable to access|Failed to connect|Could not connect/i);
  });

  it("connects to the pinned address whatever the host name resolves to", async () => {
    const s = await scenario();
    const port = new URL(remote.baseUrl).port;
    // mirror.invalid cannot resolve; the pinned address makes the push work anyway.
    const res = await update(s.request({ url: `http://mirror.invalid:${port}/${s.name}.git`, resolvedAddresses: ["127.0.0.1"] }));
    expect(res.error).toBe("");
    expect(remote.refs(s.name)).toEqual(refsIn(s.repo.dir));
    const unpinned = await update(s.request({ url: `http://mirror.invalid:${port}/${s.name}.git` }));
    expect(unpinned.error).toMatch(/resolve/i);
  });

  it("refuses URLs with credentials or other schemes, and a missing repository", async () => {
    const s = await scenario();
    const port = new URL(remote.baseUrl).port;
    await expect(update(s.request({ url: `http://${USER}:${PASSWORD}@127.0.0.1:${port}/x.git` }))).rejects.toMatchObject({ code: 3 });
    await expect(update(s.request({ url: `file:///tmp/x.git` }))).rejects.toMatchObject({ code: 3 });
    await expect(update(s.request({ branchRegex: "(" }))).rejects.toMatchObject({ code: 3 });
    await expect(update(s.request({ diskPath: "@hashed/00/00/missing.git" }))).rejects.toMatchObject({ code: 5 });
  });
});

describe("scrubSecrets", () => {
  it("removes user:password@ from URLs and every given secret", () => {
    expect(scrubSecrets("fatal: unable to access 'https://bob:pw@example.com/x.git/': pw", ["pw"])).toBe(
      "fatal: unable to access 'https://example.com/x.git/': *****",
    );
  });
});
