// The engine every API write that creates a commit shares (commits create, repository files,
// cherry-pick, revert, submodules). Trees are edited directory by directory (tree-edit.ts) and,
// like the commit, written as loose objects without a git process; the branch moves with a
// compare-and-swap (`git update-ref <ref> <new> <old>`) together with its push event, so two
// writers racing on one branch never lose a commit, and the loser is told the branch moved.
import { BRANCH_REF_PREFIX } from "@quarry/gitlab";
import { badRequest } from "@quarry/grpc";
import type { PushContext__Output as PushContext } from "@quarry/proto/types/repo/v1/PushContext";
import type { RepoDeps } from "../deps.ts";
import { branchHead } from "../refs/branches.ts";
import { parseCommitObject, toApiCommit } from "../git/commit-objects.ts";
import { readCommit, type Commit } from "../git/commits.ts";
import { looksBinary } from "../git/files.ts";
import { git, hasBranches, isValidBranchName, NULL_SHA, resolveCommit } from "../git/git.ts";
import { ObjectBatch } from "../git/loose-objects.ts";
import { BranchProtection } from "../protection/protection.ts";
import type { PushedCommit } from "@quarry/bus";
import { changeRefWithEvent, RefUpdateError } from "../events/ref-change.ts";
import { EMPTY_TREE, TreeEdit, type TreeEntry } from "../git/tree-edit.ts";

export { EMPTY_TREE, type TreeEntry };

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
  // The branch is read once: it is both the start (when writing on top of itself) and the
  // compare-and-swap's expectation. Reading it twice let a concurrent writer move it in between,
  // which made the write look like a history rewrite (a force push) instead of a lost race.
  const head = await branchHead(gitDir, branch);
  const empty = !head && !(await hasBranches(gitDir));
  if (startBranch && !empty) {
    base = startBranch === branch ? head : await branchHead(gitDir, startBranch);
    if (!base) throw badRequest("You can only create or edit files when you are on a branch");
  }
  const differentBranch = startBranch !== branch;
  if (!empty && differentBranch && head && !force) {
    throw badRequest(`A branch called '${branch}' already exists. Switch to that branch in order to make changes`);
  }
  if (!head && !(await isValidBranchName(branch))) {
    throw badRequest(`Something went wrong when we tried to create '${branch}' for you: Branch name is invalid`);
  }
  const rewrite = !!head && head !== base && !(await isAncestor(gitDir, head, base));
  return { branch, ref: BRANCH_REF_PREFIX + branch, oldSha: head || NULL_SHA, baseSha: base, rewrite };
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

/**
 * The tree of commit `base` ("" for none) with `changes` applied (path → new entry, null removes
 * it), written without a git process (see TreeEdit).
 */
export async function writeTree(deps: RepoDeps, gitDir: string, base: string, changes: ReadonlyMap<string, TreeEntry | null>): Promise<string> {
  const edit = await TreeEdit.load(deps.catFile, gitDir, base, [...changes.keys()]);
  for (const [p, entry] of changes) {
    if (entry) edit.set(p, entry);
    else edit.remove(p);
  }
  const batch = await ObjectBatch.for(gitDir);
  const tree = edit.write(batch);
  await batch.write(gitDir);
  return tree;
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

/**
 * git's ident cleanup (ident.c, strbuf_addstr_without_crud): leading and trailing "crud"
 * (control characters, space, `.,:;<>"\'`) goes, and so do "<", ">" and newlines anywhere.
 */
function withoutCrud(s: string): string {
  const crud = (c: string) => c <= " " || ".,:;<>\"\\'".includes(c);
  let start = 0;
  let end = s.length;
  while (start < end && crud(s[start]!)) start++;
  while (end > start && crud(s[end - 1]!)) end--;
  return s.slice(start, end).replace(/[\n<>]/g, "");
}

/** "<seconds> <+hhmm>" for now, in this process's time zone (what `git commit-tree` writes). */
function gitNow(): string {
  const now = new Date();
  const offset = -now.getTimezoneOffset();
  const abs = Math.abs(offset);
  const zone = `${offset < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}${String(abs % 60).padStart(2, "0")}`;
  return `${Math.floor(now.getTime() / 1000)} ${zone}`;
}

function identLine(role: "author" | "committer", who: Signature, now: string): string {
  const name = withoutCrud(who.name);
  const email = withoutCrud(who.email);
  if (!name) throw badRequest(`empty ident name (for <${email}>) not allowed`);
  const date = who.date ?? now;
  if (!/^\d+ [+-]\d{4}$/.test(date)) throw new Error(`not a raw git date: ${date}`);
  return `${role} ${name} <${email}> ${date}\n`;
}

/**
 * Adds a commit object to `batch` as `git commit-tree` would write it: the message kept as given,
 * identities cleaned up as git cleans them, dates defaulting to now. Returns the commit as the
 * API shows it, parsed from those bytes.
 */
export function commitObject(batch: ObjectBatch, c: CommitSpec): Commit {
  if (c.message.includes("\0")) throw badRequest("a NUL byte in commit log message not allowed");
  const now = gitNow();
  const header = [`tree ${c.tree}\n`, ...c.parents.map((p) => `parent ${p}\n`), identLine("author", c.author, now), identLine("committer", c.committer, now)];
  const data = Buffer.from(`${header.join("")}\n${c.message}`, "utf8");
  return toApiCommit(parseCommitObject(batch.add("commit", data), data));
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

/** Line counts and changed paths of a commit, from `git diff-tree --raw --numstat` (a long-lived one). */
export async function commitChanges(deps: RepoDeps, gitDir: string, sha: string): Promise<CommitChanges> {
  const stdout = await deps.gitSessions.diffTree(gitDir, ["-r", "--root", "--no-renames", "--no-commit-id", "-z", "--raw", "--numstat"], sha);
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
export async function publishCommit(
  deps: RepoDeps,
  gitDir: string,
  target: WriteTarget,
  sha: string,
  context: PushContext,
  refProtected: boolean,
): Promise<Written> {
  const [commit, changes] = await Promise.all([readCommit(gitDir, sha), commitChanges(deps, gitDir, sha)]);
  await moveBranch(deps, gitDir, target, { commit, ...changes }, context, refProtected);
  return { commit, additions: changes.additions, deletions: changes.deletions };
}

/** Lines added and removed by a commit (against its first parent). */
export type LineCounts = Pick<CommitChanges, "additions" | "deletions">;

/**
 * publishCommit for a commit this service just wrote, whose changed paths it knows: only the
 * line counts may still need git, and they are counted while the branch moves.
 */
export async function publishWritten(
  deps: RepoDeps,
  gitDir: string,
  target: WriteTarget,
  written: { commit: Commit; paths: Pick<CommitChanges, "added" | "modified" | "removed">; lines: () => Promise<LineCounts> },
  context: PushContext,
  refProtected: boolean,
): Promise<Written> {
  const { commit, paths } = written;
  const [lines] = await Promise.all([written.lines(), moveBranch(deps, gitDir, target, { commit, ...paths }, context, refProtected)]);
  return { commit, ...lines };
}

/** A blob's lines as `git diff --numstat` counts them: 0 for binary content. */
function lineCount(content: Buffer): number {
  if (looksBinary(content)) return 0;
  let lines = 0;
  for (let i = content.indexOf(0x0a); i !== -1; i = content.indexOf(0x0a, i + 1)) lines++;
  return content.length && content[content.length - 1] !== 0x0a ? lines + 1 : lines;
}

const BLOB_MODES = new Set(["100644", "100755", "120000"]);

/**
 * The line counts of commit `sha` whose changes against its parent are `diff`: counted here
 * when every change adds or removes a blob or only changes a mode (the blobs' content comes
 * from `contents` or the cat-file pool), else by `git diff-tree --numstat` (only git's diff
 * gives git's counts for a changed file).
 */
export async function lineCounts(
  deps: RepoDeps,
  gitDir: string,
  sha: string,
  diff: readonly { before?: TreeEntry; after?: TreeEntry }[],
  contents: ReadonlyMap<string, Buffer>,
): Promise<LineCounts> {
  const blob = (e?: TreeEntry) => !e || BLOB_MODES.has(e.mode);
  const simple = diff.every(({ before, after }) => blob(before) && blob(after) && (!before || !after || before.oid === after.oid));
  if (!simple) {
    const { additions, deletions } = await commitChanges(deps, gitDir, sha);
    return { additions, deletions };
  }
  const linesOf = async (e: TreeEntry): Promise<number> => {
    const content = contents.get(e.oid) ?? (await deps.catFile.read(gitDir, e.oid))?.data;
    if (!content) throw new Error(`missing blob ${e.oid}`);
    return lineCount(content);
  };
  let additions = 0;
  let deletions = 0;
  for (const { before, after } of diff) {
    if (before && after) continue; // same content, another mode
    if (after) additions += await linesOf(after);
    if (before) deletions += await linesOf(before);
  }
  return { additions, deletions };
}

async function moveBranch(
  deps: RepoDeps,
  gitDir: string,
  target: WriteTarget,
  pushed: PushedCommit,
  context: PushContext,
  refProtected: boolean,
): Promise<void> {
  try {
    await changeRefWithEvent(
      deps,
      gitDir,
      { ref: target.ref, oldSha: target.oldSha, newSha: pushed.commit.id },
      { context, checkoutSha: pushed.commit.id, commits: [pushed], refProtected },
    );
  } catch (err) {
    // Gitlab::Git::OperationService#update_ref's CommitError, which the commits and files APIs answer with 400.
    if (err instanceof RefUpdateError) throw badRequest(`Could not update branch ${target.branch}. Please refresh and try again.`);
    throw err;
  }
}
