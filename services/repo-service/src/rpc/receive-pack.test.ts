import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, send, serveGitHttp } from "../../test/git-http-support.ts";
import { gitIn, makeCommit, outboxPayloads, pushContext, repositoryWith, setUp, type TestContext } from "../../test/support.ts";
import { protectBranch } from "./protect-branch.ts";

let t: TestContext;
let served: Awaited<ReturnType<typeof serveGitHttp>>;
beforeAll(async () => {
  t = await setUp("receive_pack");
  served = await serveGitHttp(t);
});
afterAll(async () => {
  await served.close();
  await t.close();
});

const ZERO = "0".repeat(40);
const pkt = (s: string) => (Buffer.byteLength(s) + 4).toString(16).padStart(4, "0") + s;

/** A bare scratch repository borrowing `dir`'s objects: what it writes is what a client would push. */
function scratchFor(dir: string): string {
  const scratch = fs.mkdtempSync(path.join(t.sandbox, "client-"));
  execFileSync("git", ["init", "-q", "--bare", scratch]);
  fs.writeFileSync(path.join(scratch, "objects/info/alternates"), path.join(dir, "objects") + "\n");
  return scratch;
}

/** A pack of what `revs` (rev-list arguments) reach in `scratch`. */
const packOf = (scratch: string, revs: string[]) =>
  execFileSync("git", ["--git-dir", scratch, "pack-objects", "--stdout", "--revs", "--quiet"], { input: revs.join("\n") + "\n" });

interface Command {
  old: string;
  new: string;
  ref: string;
}

/** Runs a push (report-status over side-band-64k); returns the status report and the hook messages. */
async function push(diskPath: string, commands: Command[], pack: Buffer, accessLevel = 40, projectId = 1) {
  const lines = commands.map((c, i) => pkt(`${c.old} ${c.new} ${c.ref}${i === 0 ? "\0report-status side-band-64k" : ""}\n`));
  const call = served.client.ReceivePack();
  const out = collect(call);
  send(call, { diskPath, gitProtocol: "", context: pushContext(projectId, { accessLevel }) }, Buffer.concat([Buffer.from(lines.join("") + "0000"), pack]));
  const { data, error } = await out;
  const bands: Record<number, string> = { 1: "", 2: "", 3: "" };
  for (let at = 0; at + 4 <= data.length; ) {
    const length = parseInt(data.toString("latin1", at, at + 4), 16);
    if (length === 0) {
      at += 4;
      continue;
    }
    bands[data[at + 4]!] += data.toString("utf8", at + 5, at + length);
    at += length;
  }
  return { report: bands[1]!, messages: bands[2]!, error };
}

/** A repository with `main` at a first commit, and a scratch client repository. */
async function seeded() {
  const repo = await repositoryWith(t);
  const first = makeCommit(repo.dir, { message: "First\n", files: { "a.txt": "a\n", "b.txt": "b\n" } });
  gitIn(repo.dir, "update-ref", "refs/heads/main", first);
  return { ...repo, first, scratch: scratchFor(repo.dir) };
}

describe("ReceivePack", () => {
  it("applies a fast-forward push and records its push event with the commits and their paths", async () => {
    const r = await seeded();
    const second = makeCommit(r.scratch, { message: "Second\n", parents: [r.first], files: { "a.txt": "changed\n", "c.txt": "c\n" } });
    const { report, error } = await push(
      r.diskPath,
      [{ old: r.first, new: second, ref: "refs/heads/main" }],
      packOf(r.scratch, [second, `^${r.first}`]),
      40,
      r.projectId,
    );
    expect(error).toBeUndefined();
    expect(report).toContain("unpack ok\n");
    expect(report).toContain("ok refs/heads/main\n");
    expect(gitIn(r.dir, "rev-parse", "refs/heads/main")).toBe(second);

    const events = await outboxPayloads(t, r.projectId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      subject: "quarry.repo.push",
      payload: {
        before: r.first,
        after: second,
        ref: "refs/heads/main",
        checkout_sha: second,
        total_commits_count: 1,
        commits: [{ id: second, title: "Second", added: ["c.txt"], modified: ["a.txt"], removed: ["b.txt"] }],
      },
    });
    // Nothing left behind by the per-push hooks.
    expect(fs.readdirSync(path.join(t.deps.storageRoot, "+tmp"))).toEqual([]);
  });

  it("lists the history of the first branch of an empty repository, newest 20 of all", async () => {
    const r = await repositoryWith(t);
    const scratch = scratchFor(r.dir);
    let head = "";
    for (let i = 1; i <= 22; i++) head = makeCommit(scratch, { message: `C${i}\n`, parents: head ? [head] : [] });
    const { report } = await push(r.diskPath, [{ old: ZERO, new: head, ref: "refs/heads/feature" }], packOf(scratch, [head]), 30, r.projectId);
    expect(report).toContain("ok refs/heads/feature\n");
    const [event] = await outboxPayloads(t, r.projectId);
    const payload = event!.payload as { total_commits_count: number; commits: { title: string }[] };
    expect(payload.total_commits_count).toBe(22);
    expect(payload.commits.map((c) => c.title)).toEqual(Array.from({ length: 20 }, (_, i) => `C${i + 3}`));
    // Not the default branch ("main"): nothing gets protected.
    expect(await t.deps.prisma.protectedBranch.count({ where: { projectId: r.projectId } })).toBe(0);
    const main = makeCommit(scratch, { message: "Main\n", parents: [head] });
    await push(r.diskPath, [{ old: ZERO, new: main, ref: "refs/heads/main" }], packOf(scratch, [main, `^${head}`]), 40, r.projectId);
    const rules = await t.deps.prisma.protectedBranch.findMany({ where: { projectId: r.projectId } });
    expect(rules.map((rule) => rule.name)).toEqual(["main"]);
  });

  it("records a tag_push event with the annotation and the tagged commit", async () => {
    const r = await seeded();
    const tag = execFileSync("git", ["--git-dir", r.scratch, "mktag"], {
      input: `object ${r.first}\ntype commit\ntag v1\ntagger Ada <ada@example.com> 1700000000 +0000\n\nRelease one\n`,
      encoding: "utf8",
    }).trim();
    const { report } = await push(r.diskPath, [{ old: ZERO, new: tag, ref: "refs/tags/v1" }], packOf(r.scratch, [tag, `^${r.first}`]), 40, r.projectId);
    expect(report).toContain("ok refs/tags/v1\n");
    const [event] = await outboxPayloads(t, r.projectId);
    expect(event).toMatchObject({
      subject: "quarry.repo.tag_push",
      payload: { object_kind: "tag_push", after: tag, checkout_sha: r.first, message: "Release one", total_commits_count: 1, commits: [{ id: r.first }] },
    });
  });

  it("declines a push to a protected branch without the rights: GitLab's message, no change, no event", async () => {
    const r = await seeded();
    await protectBranch(t.deps)({
      projectId: r.projectId,
      name: "main",
      pushAccessLevel: 40,
      mergeAccessLevel: 40,
      allowForcePush: false,
      codeOwnerApprovalRequired: false,
    });
    const second = makeCommit(r.scratch, { message: "Second\n", parents: [r.first] });
    const { report, messages } = await push(
      r.diskPath,
      [{ old: r.first, new: second, ref: "refs/heads/main" }],
      packOf(r.scratch, [second, `^${r.first}`]),
      30,
      r.projectId,
    );
    expect(messages).toContain("GitLab: You are not allowed to push code to protected branches on this project.\n");
    expect(report).toContain("ng refs/heads/main pre-receive hook declined\n");
    expect(gitIn(r.dir, "rev-parse", "refs/heads/main")).toBe(r.first);
    expect(await outboxPayloads(t, r.projectId)).toEqual([]);
  });

  it("declines a force push to a protected branch unless its rule allows force pushes", async () => {
    const r = await seeded();
    await protectBranch(t.deps)({ projectId: r.projectId, name: "main", allowForcePush: false, codeOwnerApprovalRequired: false });
    const rewritten = makeCommit(r.scratch, { message: "Rewritten\n" });
    const commands = [{ old: r.first, new: rewritten, ref: "refs/heads/main" }];
    const declined = await push(r.diskPath, commands, packOf(r.scratch, [rewritten]), 40, r.projectId);
    expect(declined.messages).toContain("GitLab: You are not allowed to force push code to a protected branch on this project.\n");
    expect(declined.report).toContain("ng refs/heads/main pre-receive hook declined\n");
    expect(gitIn(r.dir, "rev-parse", "refs/heads/main")).toBe(r.first);

    await t.deps.prisma.protectedBranch.updateMany({ where: { projectId: r.projectId }, data: { allowForcePush: true } });
    const allowed = await push(r.diskPath, commands, packOf(r.scratch, [rewritten]), 40, r.projectId);
    expect(allowed.report).toContain("ok refs/heads/main\n");
    expect(gitIn(r.dir, "rev-parse", "refs/heads/main")).toBe(rewritten);
  });

  it("refuses every command of a push when one is not allowed", async () => {
    const r = await seeded();
    const other = makeCommit(r.scratch, { message: "Other\n", parents: [r.first] });
    const { report, messages } = await push(
      r.diskPath,
      [
        { old: ZERO, new: other, ref: "refs/heads/topic" },
        { old: r.first, new: ZERO, ref: "refs/heads/main" },
      ],
      packOf(r.scratch, [other, `^${r.first}`]),
      40,
      r.projectId,
    );
    expect(messages).toContain("GitLab: The default branch of a project cannot be deleted.\n");
    expect(report).toContain("ng refs/heads/topic pre-receive hook declined\n");
    expect(gitIn(r.dir, "for-each-ref", "--format=%(refname)")).toBe("refs/heads/main");
  });

  it("answers NOT_FOUND for a missing repository and INVALID_ARGUMENT without a context", async () => {
    const r = await seeded();
    const missing = await push("@hashed/00/00/none.git", [], Buffer.alloc(0));
    expect(missing.error?.code).toBe(status.NOT_FOUND);
    const call = served.client.ReceivePack();
    const out = collect(call);
    send(call, { diskPath: r.diskPath, gitProtocol: "" }, Buffer.from("0000"));
    expect((await out).error?.code).toBe(status.INVALID_ARGUMENT);
  });
});
