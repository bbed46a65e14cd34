// The engine every API write that creates a commit shares (commits create, repository files,
// cherry-pick, revert, submodules): trees are built in a temporary index (never a work tree),
// the commit with `git commit-tree`, and the branch moves with a compare-and-swap together
// with its push event, so two writers racing on one branch never lose a commit.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { badRequest } from "@quarry/grpc";
import type { PushContext__Output as PushContext } from "@quarry/proto/types/repo/v1/PushContext";
import type { RepoDeps } from "../deps.ts";
import { branchHead, HEADS } from "./branches.ts";
import { readCommit, type Commit } from "./commits.ts";
import { branchRefs, git, isValidBranchName, NULL_SHA, resolveCommit } from "./git.ts";
import { BranchProtection } from "./protection.ts";
import type { PushedCommit } from "@quarry/bus";
import { changeRefWithEvent, RefUpdateError } from "./ref-change.ts";

/** The id of the empty tree (the "parent tree" of a root commit). */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** A git identity; `date` (git's raw "<seconds> <offset>") defaults to now. */
export interface Signature {
  name: string;
  email: string;
  date?: string;
}

/** The acting user as a git identity. */
export function actingUser(context: PushContext): Signature {
  return { name: context.userName || context.userUsername, email: context.userEmail };
}

/**
 * Refuses a write to `branch` the caller may not push to (403, GitLab's wording); `force` also
 * asks for force-push rights (a history rewrite of a protected branch). Returns whether the
 * branch is protected (the push event's ref_protected).
 */
export async function assertCanWrite(deps: RepoDeps, context: PushContext, branch: string, force = false): Promise<boolean> {
  const protection = await BranchProtection.load(deps, context.projectId);
  protection.assertCanPush(branch, context.accessLevel, { force });
  return protection.isProtected(branch);
}

/** Where a write starts and which ref it moves. */
export interface WriteTarget {
  branch: string;
  /** Full ref name of the branch. */
  ref: string;
  /** The branch's head when read (NULL_SHA when the write creates it): the compare-and-swap's expectation. */
  oldSha: string;
  /** Parent of the new commit; "" for the first commit of an empty repository. */
  baseSha: string;
  /** Whether moving the branch to a child of `baseSha` drops commits (a forced overwrite). */
  rewrite: boolean;
}

export interface TargetOptions {
  branch: string;
  /** Branch to start from; empty = `branch` itself unless `startSha` is given. */
  startBranch?: string;
  /** Full commit sha to start from. */
  startSha?: string;
  /** Overwrite an existing branch with a commit on top of the start. */
  force?: boolean;
}

/**
 * Resolves the branch to write and the commit to build on, with GitLab's rules
 * (Commits::CreateService#validate!): start_branch must be a branch, start_sha a full sha of an
 * existing commit; a different start only creates the branch unless `force`; an empty
 * repository takes a first commit without parent.
 */
export async function resolveWriteTarget(gitDir: string, o: TargetOptions): Promise<WriteTarget> {
  const { branch, force = false } = o;
  const startSha = o.startSha ?? "";
  if (startSha && o.startBranch) throw badRequest("You can't pass both start_branch and start_sha");
  const startBranch = startSha ? "" : o.startBranch || branch;
  let base = "";
  if (startSha) {
    if (!/^[0-9a-f]{40}$/.test(startSha)) throw badRequest(`Invalid start_sha '${startSha}'`);
    base = await resolveCommit(gitDir, startSha);
    if (!base) throw badRequest(`Cannot find start_sha '${startSha}'`);
  }
  const empty = (await branchRefs(gitDir)).length === 0;
  if (startBranch && !empty) {
    base = await branchHead(gitDir, startBranch);
    if (!base) throw badRequest("You can only create or edit files when you are on a branch");
  }
  const head = await branchHead(gitDir, branch);
  const differentBranch = startBranch !== branch;
  if (!empty && differentBranch && head && !force) {
    throw badRequest(`A branch called '${branch}' already exists. Switch to that branch in order to make changes`);
  }
  if (!head && !(await isValidBranchName(branch))) {
    throw badRequest(`Something went wrong when we tried to create '${branch}' for you: Branch name is invalid`);
  }
  const rewrite = !!head && head !== base && !(await isAncestor(gitDir, head, base));
  return { branch, ref: HEADS + branch, oldSha: head || NULL_SHA, baseSha: base, rewrite };
}

async function isAncestor(gitDir: string, ancestor: string, descendant: string): Promise<boolean> {
  if (!descendant) return false;
  const { exitCode } = await git(["merge-base", "--is-ancestor", ancestor, descendant], { gitDir, okExitCodes: [1] });
  return exitCode === 0;
}

/** The tree of a commit, the empty tree for "" (no commit). */
export async function treeOf(gitDir: string, commit: string): Promise<string> {
  if (!commit) return EMPTY_TREE;
  return (await git(["rev-parse", "--verify", `${commit}^{tree}`], { gitDir })).stdout.trim();
}

/** A tree entry: mode ("100644", "100755", "120000", "160000", "040000") and object id. */
export interface TreeEntry {
  mode: string;
  oid: string;
}

/** Every file (blob, symlink, submodule) of a tree by full path, from one `git ls-tree -r`. */
export async function readTreeEntries(gitDir: string, commit: string): Promise<Map<string, TreeEntry>> {
  const entries = new Map<string, TreeEntry>();
  if (!commit) return entries;
  const { stdout } = await git(["ls-tree", "-r", "-z", "--full-tree", commit], { gitDir });
  for (const record of stdout.split("\0")) {
    const tab = record.indexOf("\t");
    if (tab < 0) continue;
    const [mode = "", , oid = ""] = record.slice(0, tab).split(" ");
    entries.set(record.slice(tab + 1), { mode, oid });
  }
  return entries;
}

/** Runs `fn` with a scratch directory that is removed afterwards. */
async function withScratch<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "quarry-write-"));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Writes blobs (one `git hash-object` for all of them) and returns their ids in order. */
export async function writeBlobs(gitDir: string, contents: readonly Buffer[]): Promise<string[]> {
  if (!contents.length) return [];
  return withScratch(async (dir) => {
    const files = contents.map((_, i) => path.join(dir, String(i)));
    await Promise.all(contents.map((c, i) => writeFile(files[i]!, c)));
    const { stdout } = await git(["hash-object", "-w", "--no-filters", "--stdin-paths"], { gitDir, input: files.join("\n") + "\n" });
    return stdout.split("\n").filter(Boolean);
  });
}

/**
 * The tree of `baseSha` with `changes` applied (path → new entry, null removes it), built in a
 * temporary index: `read-tree`, `update-index --index-info`, `write-tree`.
 */
export async function writeTree(gitDir: string, baseSha: string, changes: ReadonlyMap<string, TreeEntry | null>): Promise<string> {
  return withScratch(async (dir) => {
    const env = { GIT_INDEX_FILE: path.join(dir, "index") };
    await git(baseSha ? ["read-tree", baseSha] : ["read-tree", "--empty"], { gitDir, env });
    const lines = [...changes].map(([p, e]) => (e ? `${e.mode} ${e.oid}\t${p}\0` : `0 ${NULL_SHA}\t${p}\0`));
    if (lines.length) await git(["update-index", "-z", "--index-info"], { gitDir, env, input: lines.join("") });
    return (await git(["write-tree"], { gitDir, env })).stdout.trim();
  });
}

export interface CommitSpec {
  tree: string;
  parents: readonly string[];
  message: string;
  author: Signature;
  committer: Signature;
}

/** Writes a commit object (no ref) with `git commit-tree`; the message is kept as given. */
export async function commitTree(gitDir: string, c: CommitSpec): Promise<string> {
  const env: Record<string, string> = {
    GIT_AUTHOR_NAME: c.author.name,
    GIT_AUTHOR_EMAIL: c.author.email,
    GIT_COMMITTER_NAME: c.committer.name,
    GIT_COMMITTER_EMAIL: c.committer.email,
  };
  if (c.author.date) env.GIT_AUTHOR_DATE = c.author.date;
  if (c.committer.date) env.GIT_COMMITTER_DATE = c.committer.date;
  const args = ["commit-tree", "--no-gpg-sign", c.tree];
  for (const p of c.parents) args.push("-p", p);
  return (await git(args, { gitDir, env, input: c.message })).stdout.trim();
}

/** What a commit changed against its first parent (the empty tree for a root commit). */
export interface CommitChanges {
  additions: number;
  deletions: number;
  added: string[];
  modified: string[];
  removed: string[];
}

const RAW_HEADER = /^:\d{6} \d{6} [0-9a-f]+ [0-9a-f]+ ([A-Z])\d*$/;

/** Line counts and changed paths of a commit, from one `git diff-tree --raw --numstat`. */
export async function commitChanges(gitDir: string, sha: string): Promise<CommitChanges> {
  const { stdout } = await git(["diff-tree", "-r", "--root", "--no-renames", "--no-commit-id", "-z", "--raw", "--numstat", sha], { gitDir });
  const out: CommitChanges = { additions: 0, deletions: 0, added: [], modified: [], removed: [] };
  const tokens = stdout.split("\0");
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const raw = RAW_HEADER.exec(token);
    if (raw) {
      const file = tokens[++i] ?? "";
      const list = raw[1] === "A" ? out.added : raw[1] === "D" ? out.removed : out.modified;
      list.push(file);
      continue;
    }
    // numstat: "<added>\t<deleted>\t<path>", "-" for binary files (counted as 0, like GitLab).
    const numstat = /^(\d+|-)\t(\d+|-)\t/.exec(token);
    if (numstat) {
      out.additions += Number(numstat[1]) || 0;
      out.deletions += Number(numstat[2]) || 0;
    }
  }
  return out;
}

/** A published commit with its line counts (the WrittenCommit message, commit always set). */
export interface Written {
  commit: Commit;
  additions: number;
  deletions: number;
}

/**
 * Moves the target branch to `sha` (compare-and-swap against the head the write was built on)
 * and records the push event carrying the commit. A lost race is 400 and leaves the ref alone.
 */
export async function publishCommit(deps: RepoDeps, gitDir: string, target: WriteTarget, sha: string, context: PushContext, refProtected: boolean): Promise<Written> {
  const [commit, changes] = await Promise.all([readCommit(gitDir, sha), commitChanges(gitDir, sha)]);
  await moveBranch(deps, gitDir, target, { commit, ...changes }, context, refProtected);
  return { commit, additions: changes.additions, deletions: changes.deletions };
}

async function moveBranch(deps: RepoDeps, gitDir: string, target: WriteTarget, pushed: PushedCommit, context: PushContext, refProtected: boolean): Promise<void> {
  try {
    await changeRefWithEvent(
      deps,
      gitDir,
      { ref: target.ref, oldSha: target.oldSha, newSha: pushed.commit.id },
      { context, checkoutSha: pushed.commit.id, commits: [pushed], refProtected },
    );
  } catch (err) {
    if (err instanceof RefUpdateError) throw badRequest(`Could not update ${target.branch}. Please refresh and try again.`);
    throw err;
  }
}
