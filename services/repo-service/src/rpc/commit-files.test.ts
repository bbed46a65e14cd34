import { Subjects } from "@quarry/bus";
import { status } from "@quarry/grpc";
import type { CommitFileAction } from "@quarry/proto/types/repo/v1/CommitFileAction";
import type { CommitFilesRequest__Output } from "@quarry/proto/types/repo/v1/CommitFilesRequest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { gitIn, makeTreeCommit, outboxPayloads, pushContext, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import type { RepoDeps } from "../deps.ts";
import { commitFiles } from "./commit-files.ts";
import { NULL_SHA } from "../git/git.ts";
import { protectBranch } from "./protect-branch.ts";

let t: TestContext;
let repo: { diskPath: string; dir: string; projectId: number };
let base: string;

beforeAll(async () => {
  t = await setUp("repo_commit_files");
});
afterAll(() => t?.close());

beforeEach(async () => {
  repo = await repositoryWith(t);
  base = makeTreeCommit(repo.dir, { "README.md": "# Hello\n", "src/app.ts": "one\ntwo\n" }, { message: "Base\n" });
  gitIn(repo.dir, "update-ref", "refs/heads/main", base);
});

type Action = Partial<CommitFileAction> & { action: string; filePath: string };
const action = (a: Action) => ({
  previousPath: "",
  lastCommitId: "",
  ...a,
  content: a.content === undefined ? undefined : Buffer.from(a.content as string | Buffer),
});
const request = (actions: Action[], o: Partial<CommitFilesRequest__Output> = {}): CommitFilesRequest__Output => ({
  diskPath: repo.diskPath,
  context: pushContext(repo.projectId),
  branch: "main",
  commitMessage: "Change things",
  startBranch: "",
  startSha: "",
  force: false,
  authorName: "",
  authorEmail: "",
  fileOperation: "",
  ...o,
  actions: actions.map(action) as CommitFilesRequest__Output["actions"],
});
const run = (actions: Action[], o: Partial<CommitFilesRequest__Output> = {}, deps: RepoDeps = t.deps) => commitFiles(deps)(request(actions, o));
const show = (rev: string) => gitIn(repo.dir, "show", rev);
const refused = (p: Promise<unknown>, message: string) => expect(p).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, body: { message } });

describe("CommitFiles", () => {
  it("commits a new file on top of the branch, as the acting user, with GitLab's push event", async () => {
    const written = await run([{ action: "create", filePath: "docs/new.md", content: "a\nb\n" }]);
    const head = gitIn(repo.dir, "rev-parse", "refs/heads/main");
    expect(written.commit).toMatchObject({
      id: head,
      parentIds: [base],
      message: "Change things",
      title: "Change things",
      authorName: "Ada Lovelace",
      authorEmail: "ada@example.com",
      committerName: "Ada Lovelace",
    });
    expect(written).toMatchObject({ additions: 2, deletions: 0 });
    expect(show("main:docs/new.md")).toBe("a\nb");
    expect(show("main:README.md")).toBe("# Hello");
    expect(gitIn(repo.dir, "ls-tree", "main", "docs/new.md")).toMatch(/^100644 blob/);

    const events = await outboxPayloads(t, repo.projectId);
    expect(events).toHaveLength(1);
    expect(events[0]!.subject).toBe(Subjects.push);
    expect(events[0]!.payload).toMatchObject({
      ref_protected: false,
      before: base,
      after: head,
      ref: "refs/heads/main",
      checkout_sha: head,
      total_commits_count: 1,
      commits: [
        {
          id: head,
          message: "Change things",
          title: "Change things",
          added: ["docs/new.md"],
          modified: [],
          removed: [],
          author: { name: "Ada Lovelace", email: "ada@example.com" },
        },
      ],
    });
  });

  it("keeps binary content byte for byte, sets the execute flag of created files and takes the given author", async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const written = await run([{ action: "create", filePath: "bin/blob", content: bytes, executeFilemode: true }], {
      authorName: "Grace",
      authorEmail: "grace@example.com",
    });
    expect(gitIn(repo.dir, "ls-tree", "main", "bin/blob")).toMatch(/^100755 blob/);
    const raw = (await import("node:child_process")).execFileSync("git", ["--git-dir", repo.dir, "cat-file", "blob", "main:bin/blob"]);
    expect(Buffer.compare(raw, bytes)).toBe(0);
    expect(written.commit).toMatchObject({
      authorName: "Grace",
      authorEmail: "grace@example.com",
      committerName: "Ada Lovelace",
      committerEmail: "ada@example.com",
    });
  });

  it("updates, moves, deletes and chmods in one commit", async () => {
    const written = await run([
      { action: "update", filePath: "src/app.ts", content: "one\n2\n" },
      { action: "move", previousPath: "README.md", filePath: "docs/README.md" },
      { action: "chmod", filePath: "src/app.ts", executeFilemode: true },
      { action: "create", filePath: "gone.txt", content: "x" },
      { action: "delete", filePath: "gone.txt" },
    ]);
    expect(gitIn(repo.dir, "ls-tree", "-r", "--name-only", "main")).toBe("docs/README.md\nsrc/app.ts");
    expect(show("main:docs/README.md")).toBe("# Hello");
    expect(gitIn(repo.dir, "ls-tree", "main", "src/app.ts")).toMatch(/^100755 blob/);
    expect(show("main:src/app.ts")).toBe("one\n2");
    expect(written).toMatchObject({ additions: 2, deletions: 2 });
    const [event] = await outboxPayloads(t, repo.projectId);
    expect(event!.payload).toMatchObject({ commits: [{ added: ["docs/README.md"], modified: ["src/app.ts"], removed: ["README.md"] }] });
  });

  it("moves with new content", async () => {
    await run([{ action: "move", previousPath: "src/app.ts", filePath: "lib/app.ts", content: "moved" }]);
    expect(show("main:lib/app.ts")).toBe("moved");
    expect(gitIn(repo.dir, "ls-tree", "-r", "--name-only", "main")).toBe("README.md\nlib/app.ts");
  });

  it("refuses actions that do not fit the tree, with Gitaly's messages, and writes nothing", async () => {
    await refused(run([{ action: "create", filePath: "README.md", content: "x" }]), "A file with this name already exists");
    await refused(run([{ action: "create", filePath: "src", content: "x" }]), "A directory with this name already exists");
    await refused(run([{ action: "create", filePath: "README.md/inner.txt", content: "x" }]), "A file with this name already exists");
    await refused(run([{ action: "update", filePath: "missing.txt", content: "x" }]), "A file with this name doesn't exist");
    await refused(run([{ action: "update", filePath: "src", content: "x" }]), "A file with this name doesn't exist");
    await refused(run([{ action: "delete", filePath: "missing.txt" }]), "A file with this name doesn't exist");
    await refused(run([{ action: "chmod", filePath: "missing.txt", executeFilemode: true }]), "A file with this name doesn't exist");
    await refused(run([{ action: "move", previousPath: "missing.txt", filePath: "x.txt" }]), "A file with this name doesn't exist");
    await refused(run([{ action: "move", previousPath: "README.md", filePath: "src/app.ts" }]), "A file with this name already exists");
    await refused(run([{ action: "create", filePath: "../escape.txt", content: "x" }]), "Path cannot include directory traversal");
    await refused(run([{ action: "create", filePath: "a/../../escape.txt", content: "x" }]), "Path cannot include directory traversal");
    await refused(run([{ action: "move", previousPath: "../README.md", filePath: "x" }]), "Path cannot include directory traversal");
    await refused(run([{ action: "create", filePath: "/etc/passwd", content: "x" }]), "invalid path: '/etc/passwd'");
    await refused(run([{ action: "create", filePath: "a//b", content: "x" }]), "invalid path: 'a//b'");
    await refused(run([{ action: "create", filePath: "sub/.git", content: "x" }]), "invalid path: 'sub/.git'");
    // A later action failing refuses the whole commit.
    await refused(
      run([
        { action: "create", filePath: "ok.txt", content: "x" },
        { action: "delete", filePath: "nope" },
      ]),
      "A file with this name doesn't exist",
    );
    expect(gitIn(repo.dir, "rev-parse", "refs/heads/main")).toBe(base);
    expect(await outboxPayloads(t, repo.projectId)).toEqual([]);
  });

  it("refuses a .git directory anywhere in a path (git would drop such a path from the tree)", async () => {
    for (const p of ["sub/.git/config", ".GIT/x", "a/.git./b", "git~1/x", "a\\.git\\b"]) {
      await refused(run([{ action: "create", filePath: p, content: "x" }]), `invalid path: '${p}'`);
    }
    await run([
      { action: "create", filePath: ".gitlab-ci.yml", content: "x" },
      { action: "create", filePath: "a/.github/x", content: "y" },
    ]);
    expect(gitIn(repo.dir, "ls-tree", "-r", "--name-only", "main")).toBe(".gitlab-ci.yml\nREADME.md\na/.github/x\nsrc/app.ts");
  });

  it("writes objects git accepts, with identities cleaned up as git cleans them, and counts lines as git does", async () => {
    const bytes = Buffer.from([0, 1, 2, 10, 10]);
    const written = await run(
      [
        { action: "create", filePath: "notes/a.txt", content: "one\ntwo\nthree" },
        { action: "create", filePath: "notes/empty.txt" },
        { action: "create", filePath: "bin/data", content: bytes },
        { action: "delete", filePath: "src/app.ts" },
        { action: "move", previousPath: "README.md", filePath: "docs/README.md" },
      ],
      { authorName: "  Grace <Hopper>.  ", authorEmail: " <grace@example.com>; " },
    );
    expect(gitIn(repo.dir, "fsck", "--strict", "--no-dangling", "--no-progress")).toBe("");
    expect(gitIn(repo.dir, "log", "-1", "--format=%an <%ae>|%cn <%ce>|%B", "main")).toBe(
      "Grace Hopper <grace@example.com>|Ada Lovelace <ada@example.com>|Change things",
    );
    const numstat = gitIn(repo.dir, "diff-tree", "--numstat", "--no-renames", "-r", written.commit.id).split("\n").slice(1);
    const sum = (column: number) => numstat.reduce((n, line) => n + (Number(line.split("\t")[column]) || 0), 0);
    expect(written).toMatchObject({ additions: sum(0), deletions: sum(1) });
    expect(written).toMatchObject({ additions: 4, deletions: 3 });
    const [event] = await outboxPayloads(t, repo.projectId);
    expect(event!.payload).toMatchObject({
      commits: [{ added: ["bin/data", "docs/README.md", "notes/a.txt", "notes/empty.txt"], modified: [], removed: ["README.md", "src/app.ts"] }],
    });
    // A commit object as `git commit-tree` writes it: the message as given, local time.
    expect(gitIn(repo.dir, "cat-file", "commit", written.commit.id)).toMatch(
      new RegExp(
        `^tree [0-9a-f]{40}\nparent ${base}\nauthor Grace Hopper <grace@example.com> \\d+ [+-]\\d{4}\ncommitter Ada Lovelace <ada@example.com> \\d+ [+-]\\d{4}\n\nChange things$`,
      ),
    );
  });

  it("refuses a commit that would be empty", async () => {
    await refused(
      run([{ action: "update", filePath: "README.md", content: "# Hello\n" }]),
      "Your changes could not be committed: the commit would be empty (the content is unchanged)",
    );
    await refused(
      run([{ action: "chmod", filePath: "README.md", executeFilemode: false }]),
      "Your changes could not be committed: the commit would be empty (the content is unchanged)",
    );
    expect(gitIn(repo.dir, "rev-parse", "refs/heads/main")).toBe(base);
  });

  it("refuses a last_commit_id that is no longer the file's last commit, with each API's wording", async () => {
    const second = makeTreeCommit(repo.dir, { "README.md": "# Changed\n", "src/app.ts": "one\ntwo\n" }, { message: "Second\n", parents: [base] });
    gitIn(repo.dir, "update-ref", "refs/heads/main", second);
    await refused(
      run([{ action: "update", filePath: "README.md", content: "x", lastCommitId: base }]),
      "The file has changed since you started editing it: README.md",
    );
    await refused(
      run([{ action: "move", previousPath: "README.md", filePath: "R.md", lastCommitId: base }]),
      "The file has changed since you started editing it: README.md",
    );
    await refused(
      run([{ action: "update", filePath: "README.md", content: "x", lastCommitId: base }], { fileOperation: "update" }),
      "You are attempting to update a file that has changed since you started editing it.",
    );
    await refused(
      run([{ action: "delete", filePath: "README.md", lastCommitId: base }], { fileOperation: "delete" }),
      "You are attempting to delete a file that has been previously updated.",
    );
    // src/app.ts last changed in `base`: its last_commit_id still matches.
    await run([{ action: "update", filePath: "src/app.ts", content: "three\n", lastCommitId: base }]);
    await run([{ action: "update", filePath: "README.md", content: "ok\n", lastCommitId: second }]);
    expect(show("main:README.md")).toBe("ok");
  });

  it("creates a branch from start_branch or start_sha, and refuses what GitLab refuses", async () => {
    const fromBranch = await run([{ action: "create", filePath: "f.txt", content: "f" }], { branch: "feature", startBranch: "main" });
    expect(fromBranch.commit.parentIds).toEqual([base]);
    expect(gitIn(repo.dir, "rev-parse", "refs/heads/feature")).toBe(fromBranch.commit.id);
    expect(gitIn(repo.dir, "rev-parse", "refs/heads/main")).toBe(base);
    const [created] = await outboxPayloads(t, repo.projectId);
    expect(created!.payload).toMatchObject({
      ref: "refs/heads/feature",
      before: NULL_SHA,
      after: fromBranch.commit.id,
      commits: [{ id: fromBranch.commit.id }],
    });

    const fromSha = await run([{ action: "create", filePath: "g.txt", content: "g" }], { branch: "other", startSha: base });
    expect(fromSha.commit.parentIds).toEqual([base]);

    const create = (o: Partial<CommitFilesRequest__Output>) => run([{ action: "create", filePath: "h.txt", content: "h" }], o);
    await refused(create({ branch: "x", startBranch: "main", startSha: base }), "You can't pass both start_branch and start_sha");
    await refused(create({ branch: "x", startSha: "abc" }), "Invalid start_sha 'abc'");
    await refused(create({ branch: "x", startSha: "1".repeat(40) }), `Cannot find start_sha '${"1".repeat(40)}'`);
    await refused(create({ branch: "x", startBranch: "nope" }), "You can only create or edit files when you are on a branch");
    await refused(create({ branch: "x" }), "You can only create or edit files when you are on a branch");
    await refused(
      create({ branch: "feature", startBranch: "main" }),
      "A branch called 'feature' already exists. Switch to that branch in order to make changes",
    );
    await refused(
      create({ branch: "bad..name", startBranch: "main" }),
      "Something went wrong when we tried to create 'bad..name' for you: Branch name is invalid",
    );
  });

  it("overwrites an existing branch with force, on top of the start", async () => {
    await run([{ action: "create", filePath: "f.txt", content: "f" }], { branch: "feature", startBranch: "main" });
    const forced = await run([{ action: "create", filePath: "other.txt", content: "o" }], { branch: "feature", startBranch: "main", force: true });
    expect(forced.commit.parentIds).toEqual([base]);
    expect(gitIn(repo.dir, "rev-parse", "refs/heads/feature")).toBe(forced.commit.id);
    expect(gitIn(repo.dir, "ls-tree", "-r", "--name-only", "feature")).toBe("README.md\nother.txt\nsrc/app.ts");
  });

  it("makes the first commit of an empty repository without a parent", async () => {
    const empty = await repositoryWith(t);
    const written = await commitFiles(t.deps)({
      ...request([{ action: "create", filePath: "README.md", content: "hi" }]),
      diskPath: empty.diskPath,
      context: pushContext(empty.projectId),
    });
    expect(written.commit.parentIds).toEqual([]);
    expect(gitIn(empty.dir, "rev-parse", "refs/heads/main")).toBe(written.commit.id);
    const [event] = await outboxPayloads(t, empty.projectId);
    expect(event!.payload).toMatchObject({ before: NULL_SHA, after: written.commit.id, commits: [{ added: ["README.md"] }] });
    // Creating the default branch protects it (default_branch_protection 2).
    const rules = await t.deps.prisma.protectedBranch.findMany({ where: { projectId: empty.projectId } });
    expect(rules.map((r) => r.name)).toEqual(["main"]);
    await expect(
      commitFiles(t.deps)({ ...request([{ action: "update", filePath: "x", content: "y" }]), diskPath: (await repositoryWith(t)).diskPath }),
    ).rejects.toMatchObject({
      body: { message: "A file with this name doesn't exist" },
    });
  });

  it("obeys protected branches: Developers are refused, Maintainers may push", async () => {
    await protectBranch(t.deps)({ projectId: repo.projectId, name: "main", allowForcePush: false, codeOwnerApprovalRequired: false });
    const developer = pushContext(repo.projectId, { accessLevel: 30 });
    await expect(run([{ action: "create", filePath: "d.txt", content: "d" }], { context: developer })).rejects.toMatchObject({
      code: status.PERMISSION_DENIED,
      body: { message: "403 Forbidden - You are not allowed to push into this branch" },
    });
    await run([{ action: "create", filePath: "m.txt", content: "m" }], { context: pushContext(repo.projectId, { accessLevel: 40 }) });
    expect(show("main:m.txt")).toBe("m");
    const [event] = await outboxPayloads(t, repo.projectId);
    expect(event!.payload).toMatchObject({ ref: "refs/heads/main", ref_protected: true });
    // Overwriting a protected branch's history needs force-push rights too.
    await run([{ action: "create", filePath: "f.txt", content: "f" }], { branch: "feature", startBranch: "main" });
    await expect(run([{ action: "create", filePath: "x.txt", content: "x" }], { branch: "main", startBranch: "feature", force: true })).resolves.toBeTruthy();
    await expect(run([{ action: "create", filePath: "y.txt", content: "y" }], { branch: "main", startSha: base, force: true })).rejects.toMatchObject({
      code: status.PERMISSION_DENIED,
      body: { message: "403 Forbidden - You are not allowed to force push code to a protected branch on this project." },
    });
    await t.deps.prisma.protectedBranch.deleteMany({ where: { projectId: repo.projectId } });
  });

  it("reports a lost race on a protected branch as a moved branch (400), never as a force push", async () => {
    await protectBranch(t.deps)({ projectId: repo.projectId, name: "main", allowForcePush: false, codeOwnerApprovalRequired: false });
    const maintainer = pushContext(repo.projectId, { accessLevel: 40 });
    const writers = 8;
    const held = holdAfterReadingHeads(t.deps, writers);
    const results = await Promise.allSettled(
      Array.from({ length: writers }, (_, i) =>
        run([{ action: "create", filePath: `race/${i}.txt`, content: String(i) }], { commitMessage: `Race ${i}`, context: maintainer }, held),
      ),
    );
    const winners = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.commit.id] : []));
    const losers = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(writers - 1);
    for (const loser of losers) {
      expect(loser).toMatchObject({ code: status.INVALID_ARGUMENT, body: { message: "Could not update branch main. Please refresh and try again." } });
    }
    expect(gitIn(repo.dir, "log", "--format=%H", "refs/heads/main")).toBe(`${winners[0]}\n${base}`);
    expect((await outboxPayloads(t, repo.projectId)).map((e) => e.payload.after)).toEqual(winners);
    await t.deps.prisma.protectedBranch.deleteMany({ where: { projectId: repo.projectId } });
  });

  it("lets exactly one of two racing writers win; the loser gets 400 and nothing of it remains", async () => {
    // Both writers read the branch head before either moves it: hold each at its first object
    // read (after reading the head) until both got there.
    const deps = holdAfterReadingHeads(t.deps, 2);
    const results = await Promise.allSettled([
      run([{ action: "create", filePath: "one.txt", content: "1" }], { commitMessage: "One" }, deps),
      run([{ action: "create", filePath: "two.txt", content: "2" }], { commitMessage: "Two" }, deps),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toMatchObject({
      code: status.INVALID_ARGUMENT,
      body: { message: "Could not update branch main. Please refresh and try again." },
    });
    const winner = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof run>>>).value.commit;
    expect(gitIn(repo.dir, "log", "--format=%H", "refs/heads/main")).toBe(`${winner.id}\n${base}`);
    expect(gitIn(repo.dir, "for-each-ref", "--format=%(refname)")).toBe("refs/heads/main");
    const events = await outboxPayloads(t, repo.projectId);
    expect(events.map((e) => e.payload.after)).toEqual([winner.id]);
  });
});

/**
 * deps whose object reads wait until `writers` of them are waiting: a writer reads its first object
 * (the start commit) only after it read the branch head, so all of them start from the same head
 * and race for it.
 */
function holdAfterReadingHeads(deps: RepoDeps, writers: number): RepoDeps {
  let arrived = 0;
  let release!: () => void;
  const allThere = new Promise<void>((r) => (release = r));
  const catFile = new Proxy(deps.catFile, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        if (++arrived >= writers) release();
        await allThere;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { ...deps, catFile };
}
